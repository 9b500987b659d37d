"""The renderer's plain-text notices say the limit cannot be raised and follow the UI language
(studio.core words them in English; the UI hands it a translator, issue #16 audit)."""

from __future__ import annotations

from studio.core import markdown_render
from studio.core.markdown_render import MAX_NESTING, render_markdown
from tests.conftest import drain

DEEP = "".join("  " * i + f"- 第 {i} 层\n" for i in range(600))
BIG = "x" * (markdown_render.MAX_FORMATTED_BYTES + 10)


def test_core_notice_says_the_limit_is_fixed_and_what_to_change():
    markdown_render.set_notice_translator(None)
    try:
        deep = render_markdown(DEEP)
        assert deep.limit.kind == "depth"
        assert ("This limit is fixed and cannot be raised; the file itself is not changed. To see the note "
                "formatted, reduce how deeply it nests.") in deep.html
        assert "split the note into smaller notes" in render_markdown(BIG).html
    finally:
        from studio.ui import render_notices

        render_notices.install()


def test_the_review_pane_shows_the_notice_in_chinese(studio_app, qtbot):
    from studio.core.cards import CardDraft, create_card
    from studio.core.review import QueueScope

    ids = studio_app.tasks.call(lambda col: create_card(col, CardDraft(q_en="Deep list?", a_en=DEEP)))
    try:
        studio_app.set_language("zh_CN")
        pane = studio_app.window.show_pane("review")
        pane.start(QueueScope(card_ids=ids))
        drain(qtbot, studio_app)
        pane.reveal()
        shown = pane.browser.toPlainText()
        assert f"此笔记在第 604 行嵌套了 600 层，超过了格式化显示的 {MAX_NESTING} 层上限；以纯文本显示。" in shown
        assert "此上限是固定的，无法提高；文件本身不会被修改。如需格式化显示，请减少笔记的嵌套层数。" in shown
        big = render_markdown(BIG)
        assert big.notice.startswith("此笔记大小为 1,000,010 字节，超过了格式化显示的 1 MB 上限")
    finally:
        studio_app.set_language("en")
    english = render_markdown(DEEP)
    assert english.notice.startswith("This note is nested 600 levels deep at line 600")
    assert "This limit is fixed and cannot be raised" in english.html


def test_the_english_ui_wording_is_the_cores(qapp):
    from studio.core.markdown_render import RenderLimit, limit_help, notice_text
    from studio.ui import render_notices

    for limit in (RenderLimit("size", "6 MB", "1 MB", shown=5_000_000), RenderLimit("depth", "600", "40", 600),
                  RenderLimit("depth", "600", "40"), RenderLimit("inline", "1500", "1000"),
                  RenderLimit("tables", "9", "8"), RenderLimit("work", line=3, reason="many unclosed “<” tags"),
                  RenderLimit("recursion")):
        assert render_notices.describe(limit) == (notice_text(limit), limit_help(limit))
