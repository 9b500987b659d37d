"""Every pane in English and Chinese, light and dark, at 1280x800 and 1920x1080.

Writes <lang>-<theme>-<W>x<H>-<pane>.png to $STUDIO_SHOTS_DIR (else the test's tmp folder)
for a person to look at, and fails when a button or a one-line label shown in a pane is
narrower than its text (clipped or squeezed), naming each one.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import close_app, drain

SIZES = [(1280, 800), (1920, 1080)]


def clipped_widgets(window) -> list[str]:
    """Visible buttons and one-line labels whose text does not fit their width."""
    from PySide6.QtWidgets import QAbstractButton, QLabel, QToolButton

    out = []
    for widget in window.findChildren(QAbstractButton) + window.findChildren(QLabel):
        if not widget.isVisibleTo(window) or not widget.isVisible():
            continue
        text = widget.text().replace("&", "")
        if not text or "\n" in text or "<" in text:
            continue
        if isinstance(widget, QLabel):
            if widget.wordWrap() or widget.pixmap() is not None and not widget.pixmap().isNull():
                continue
            needed = widget.fontMetrics().horizontalAdvance(text) + 2 * widget.margin() + 2 * widget.indent() \
                if widget.indent() > 0 else widget.fontMetrics().horizontalAdvance(text) + 2 * widget.margin()
            needed += widget.contentsMargins().left() + widget.contentsMargins().right()
        elif isinstance(widget, QToolButton) and widget.toolButtonStyle() == 0:  # icon only
            continue
        else:
            needed = widget.minimumSizeHint().width()
        if widget.width() + 1 < needed:
            out.append(f"{type(widget).__name__} {text!r}: {widget.width()} px < {needed} px")
    return out


@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("theme_name", ["light", "dark"])
def test_every_pane_at_both_sizes(qtbot, studio_home, tmp_path, language, theme_name):
    from studio.core.collection import Collection
    from studio.core.settings import Settings
    from studio.ui.application import StudioApp
    from studio.ui.main_window import PANE_IDS

    out = Path(os.environ.get("STUDIO_SHOTS_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    col = Collection.open()
    col.sync_shipped_cards(force=True)
    col.index_shipped_notes()
    app = StudioApp(col, Settings(), language=language, theme_name=theme_name)
    problems = []
    try:
        window = app.window
        window.show()
        drain(qtbot, app, timeout=60_000)
        for width, height in SIZES:
            window.resize(width, height)
            for pane_id in PANE_IDS:
                window.show_pane(pane_id)
                drain(qtbot, app, timeout=60_000)
                qtbot.wait(50)
                assert window.size().width() == width, "the window could not take the size"
                path = out / f"{language}-{theme_name}-{width}x{height}-{pane_id}.png"
                assert window.grab().save(str(path))
                problems += [f"{path.name}: {p}" for p in clipped_widgets(window)]
    finally:
        qtbot.waitUntil(lambda: app.tasks.pending == 0, timeout=60_000)
        close_app(app)
    assert not problems, "\n".join(problems)
