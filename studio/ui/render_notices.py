"""The renderer's plain-text notices in the UI's language.

studio.core.markdown_render imports no Qt, so a note over a display limit comes back with a
RenderLimit saying which limit and by how much; `describe` words it (the notice, and that the
limit is fixed and what to change instead) through Qt's translations, and `install` hands it to
the renderer, as tasks.user_message words the core's error kinds. It is installed with the
translations, so every pane that renders Markdown shows the notice in the chosen language.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from studio.core import markdown_render


def _reason(reason: str) -> str:
    """markdown_shape's reasons for a note that would take too long to format."""
    known = {
        "many unclosed or deeply nested “[” brackets": QCoreApplication.translate("RenderNotice", "many unclosed or deeply nested “[” brackets"),
        "many unclosed “(” after links": QCoreApplication.translate("RenderNotice", "many unclosed “(” after links"),
        "many unclosed “<” tags": QCoreApplication.translate("RenderNotice", "many unclosed “<” tags"),
        "many headings or rules with no blank line between them":
            QCoreApplication.translate("RenderNotice", "many headings or rules with no blank line between them"),
        "many unclosed code fences": QCoreApplication.translate("RenderNotice", "many unclosed code fences"),
    }
    return known.get(reason, reason)


def describe(limit: markdown_render.RenderLimit) -> tuple[str, str]:
    """(notice, help) for a note shown as plain text, in the UI's language."""
    kind = limit.kind
    if kind == "size":
        notice = (QCoreApplication.translate("RenderNotice", "This note is %1, over the %2 limit for formatted display; shown as plain text.")
                  .replace("%1", limit.amount.replace(" bytes", QCoreApplication.translate("RenderNotice", " bytes")))
                  .replace("%2", limit.limit))
    elif kind in ("depth", "inline") and limit.line:
        notice = (QCoreApplication.translate("RenderNotice", "This note is nested %1 levels deep at line %2, over the limit of %3 for formatted display; shown as plain text.")
                  .replace("%1", limit.amount).replace("%2", str(limit.line)).replace("%3", limit.limit))
    elif kind in ("depth", "inline"):
        notice = (QCoreApplication.translate("RenderNotice", "This note is nested %1 levels deep, over the limit of %2 for formatted display; shown as plain text.").replace("%1", limit.amount).replace("%2", limit.limit))
    elif kind == "tables":
        notice = (QCoreApplication.translate("RenderNotice", "This note has tables nested %1 deep, over the limit of %2 for formatted display; shown as plain text.").replace("%1", limit.amount).replace("%2", limit.limit))
    elif kind == "work":
        notice = (QCoreApplication.translate("RenderNotice", "This note has %1 around line %2, which would take too long to format; shown as plain text.")
                  .replace("%1", _reason(limit.reason)).replace("%2", str(limit.line)))
    else:
        notice = QCoreApplication.translate("RenderNotice", "This note is nested too deeply to format; shown as plain text.")
    if limit.shown:
        # Worded as the core words it in English (the translator may be installed while core text is checked).
        notice = notice.rstrip(".。") + QCoreApplication.translate("RenderNotice", " (its first %1 characters).").replace(
            "%1", f"{limit.shown:,}")
    if kind == "size":
        change = QCoreApplication.translate("RenderNotice", "This limit is fixed and cannot be raised; the file itself is not changed. To see the note formatted, split the note into smaller notes.")
    elif kind == "work":
        change = QCoreApplication.translate("RenderNotice", "This limit is fixed and cannot be raised; the file itself is not changed. To see the note formatted, close or remove the markup named above.")
    else:
        change = QCoreApplication.translate("RenderNotice", "This limit is fixed and cannot be raised; the file itself is not changed. To see the note formatted, reduce how deeply it nests.")
    return notice, change


def install() -> None:
    markdown_render.set_notice_translator(describe)


__all__ = ["describe", "install"]
