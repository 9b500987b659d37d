"""The panes that show rendered Markdown: hostile notes display, nothing remote loads,
web links open in the system browser only when clicked."""

from __future__ import annotations

import base64

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument

from studio.core.markdown_render import MAX_NESTING
from studio.ui.local_browser import LocalTextBrowser, is_local_resource
from tests.conftest import drain

DEEP = "\n".join("    " * level + f"- 第 {level} 层" for level in range(600))
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")


@pytest.fixture
def opened(monkeypatch):
    """Every URL handed to the system browser."""
    urls: list[str] = []
    for where in ("studio.ui.local_browser", "studio.ui.panes.notes_pane"):
        monkeypatch.setattr(f"{where}.QDesktopServices.openUrl", lambda url: urls.append(url.toString()))
    return urls


def _click(browser, url: str) -> None:
    browser.anchorClicked.emit(QUrl(url))


def test_notes_pane_opens_web_links_on_a_click_only(studio_app, qtbot, tmp_path, opened):
    note = tmp_path / "链接.md"
    note.write_text("# 外链\n\n[文档](https://example.com/doc) <img src='http://tracker.example/p.gif'>\n"
                    '<table background="http://tracker.example/bg.png"><tr><td>t</td></tr></table>\n',
                    encoding="utf-8")
    pane = studio_app.window.show_pane("notes")
    pane.show_target(str(note))
    drain(qtbot, studio_app)
    assert "[remote image: tracker.example]" in pane.browser.toPlainText()
    assert opened == []
    source_before = pane.browser.source()
    _click(pane.browser, "https://example.com/doc")
    assert opened == ["https://example.com/doc"] and pane.browser.source() == source_before
    _click(pane.browser, "file:///etc/passwd")
    _click(pane.browser, "smb://host/share")
    assert opened == ["https://example.com/doc"]


def test_local_browser_refuses_every_remote_resource(qtbot, tmp_path):
    browser = LocalTextBrowser()
    qtbot.addWidget(browser)
    image = tmp_path / "a.png"
    image.write_bytes(PNG)
    kind = QTextDocument.ResourceType.ImageResource
    for url in ("http://tracker.example/p.gif", "https://tracker.example/p.gif", "//tracker.example/p.gif",
                "file://tracker.example/share/p.gif", "ftp://tracker.example/p.gif"):
        assert not is_local_resource(QUrl(url)) and browser.loadResource(kind, QUrl(url)) is None, url
    assert browser.loadResource(kind, QUrl.fromLocalFile(str(image))) is not None
    data = "data:image/png;base64," + base64.b64encode(PNG).decode()
    browser.setHtml(f'<img src="{data}"><img src="http://tracker.example/q.png">')
    assert browser.document().resource(kind, QUrl(data)) is not None  # embedded images still show
    assert browser.document().resource(kind, QUrl("http://tracker.example/q.png")) is None
    assert not browser.openLinks() and not browser.openExternalLinks()


def test_review_of_a_600_deep_card_shows_the_notice_and_the_session_goes_on(studio_app, qtbot, opened):
    from studio.core.cards import CardDraft, create_card
    from studio.core.review import RATINGS, QueueScope

    ids = studio_app.tasks.call(lambda col: create_card(col, CardDraft(q_en="Deep list?", a_en=DEEP)))
    ids += studio_app.tasks.call(lambda col: create_card(col, CardDraft(q_en="Next [link](https://example.com/n)?",
                                                                        a_en="ok")))
    pane = studio_app.window.show_pane("review")
    pane.start(QueueScope(card_ids=ids))
    drain(qtbot, studio_app)
    assert pane.card.q_en == "Deep list?"
    pane.reveal()  # renders through card_markdown + render_markdown, as every review does
    shown = pane.browser.toPlainText()
    assert f"nested 600 levels deep at line 604, over the limit of {MAX_NESTING}" in shown
    assert "第 599 层" in shown and not pane.grade_buttons[2].isHidden()
    pane.grade(RATINGS[2])
    drain(qtbot, studio_app)
    assert pane.card is not None and pane.card.q_en.startswith("Next")
    _click(pane.browser, "https://example.com/n")
    assert opened == ["https://example.com/n"]


def test_drill_statement_and_card_preview_open_web_links_on_a_click_only(studio_app, qtbot, opened):
    from studio.ui.card_editor import CardEditor

    drills = studio_app.window.show_pane("drills")
    drain(qtbot, studio_app)
    editor = CardEditor(studio_app.window.ctx)
    qtbot.addWidget(editor)
    editor.fields["q_en"].setPlainText("Q <img src=\"http://tracker.example/q.png\">")
    editor.fields["a_en"].setPlainText(DEEP)
    editor.update_preview()
    assert "[remote image: tracker.example]" in editor.preview.toPlainText()
    assert "nested 600 levels deep" in editor.preview.toPlainText()
    for browser in (drills.statement, editor.preview):
        assert isinstance(browser, LocalTextBrowser)
        before = browser.toHtml()
        _click(browser, "https://example.com/x")
        _click(browser, "file:///etc/passwd")
        assert browser.toHtml() == before
    assert opened == ["https://example.com/x", "https://example.com/x"]
