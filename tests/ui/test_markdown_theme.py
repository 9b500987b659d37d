"""Code blocks in every pane that renders Markdown are readable in both themes, and stay
readable when the theme changes while the app runs (View → Theme).

Readability is measured on the laid-out document, not on the HTML text: for every
coloured table cell (how the renderer draws a code block) each piece of text is
compared with the cell's background, using the widget's palette for text that
carries no colour of its own, which is what Qt draws.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QTextCursor

from studio.core import interviews as iv
from studio.core.review import QueueScope, ReviewQueue
from tests.conftest import drain

CODE_CARD = "llm/moe-load-balancing-loss"  # its answer holds a plain ``` block, in English and Chinese
CODE_MD = "Intro with `inline code`.\n\n```\nplain = block\n```\n\n```python\ndef f(x):\n    return x + 1  # one\n```\n"


def _luminance(c: QColor) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def _contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def code_cells(browser) -> list[tuple[QColor, QColor, str]]:
    """(cell background, drawn text colour, text) for each text fragment in a coloured table cell."""
    out = []
    doc = browser.document()
    block = doc.begin()
    while block.isValid():
        table = QTextCursor(block).currentTable()
        if table is not None:
            brush = table.cellAt(block.position()).format().background()
            if brush.style() != Qt.NoBrush:
                it = block.begin()
                while not it.atEnd():
                    fragment = it.fragment()
                    if fragment.text().strip():
                        fg = fragment.charFormat().foreground()
                        colour = fg.color() if fg.style() != Qt.NoBrush else browser.palette().text().color()
                        out.append((brush.color(), colour, fragment.text()))
                    it += 1
        block = block.next()
    return out


def assert_readable(browser, dark: bool) -> None:
    cells = code_cells(browser)
    assert cells, "no code block was drawn"
    for background, text, snippet in cells:
        assert (background.lightness() < 100) if dark else (background.lightness() > 180), \
            f"{background.name()} behind {snippet!r} under the {'dark' if dark else 'light'} theme"
        assert _contrast(background, text) >= 2.5, f"{text.name()} on {background.name()}: {snippet!r}"


def _switch(app, qtbot, theme: str) -> None:
    app.set_theme(theme)
    QCoreApplication.processEvents()
    QCoreApplication.processEvents()
    drain(qtbot, app)


def _card_id(app) -> int:
    from sqlalchemy import select

    from studio.core.models import Card

    def find(col):
        with col.db.session() as s:
            return s.scalar(select(Card.id).where(Card.key == CODE_CARD))

    return app.tasks.call(find)


@pytest.mark.parametrize("first", ["dark", "light"])
def test_review_answer_code_is_readable_in_either_theme_and_after_a_switch(studio_app, qtbot, first):
    _switch(studio_app, qtbot, first)
    pane = studio_app.window.show_pane("review")
    drain(qtbot, studio_app)
    pane.start(QueueScope(card_ids=[_card_id(studio_app)]))
    drain(qtbot, studio_app)
    pane.reveal()
    assert pane.revealed
    assert_readable(pane.browser, first == "dark")
    other = "light" if first == "dark" else "dark"
    _switch(studio_app, qtbot, other)
    assert pane.revealed, "the switch must not hide the answer"
    assert_readable(pane.browser, other == "dark")


def test_card_editor_preview_follows_the_theme(studio_app, qtbot):
    from studio.ui.card_editor import CardEditor

    _switch(studio_app, qtbot, "dark")
    editor = CardEditor(studio_app.window.ctx, _card_id(studio_app))
    qtbot.addWidget(editor)
    drain(qtbot, studio_app)
    assert_readable(editor.preview, True)
    _switch(studio_app, qtbot, "light")
    assert_readable(editor.preview, False)
    editor.fields["a_en"].setPlainText(CODE_MD)  # a fresh preview under the new theme
    editor.update_preview()
    assert_readable(editor.preview, False)


def test_mock_interview_question_follows_the_theme(studio_app, qtbot):
    from studio.ui.mock_interview import MockInterviewDialog

    _switch(studio_app, qtbot, "dark")
    dialog = MockInterviewDialog(studio_app.window.ctx)
    qtbot.addWidget(dialog)
    drain(qtbot, studio_app)
    card_id = _card_id(studio_app)
    # The question page as it stands once the answer is revealed (which card a session
    # draws is random, and this one has code).
    dialog.card, dialog.revealed = studio_app.tasks.call(lambda col: ReviewQueue(col).get(card_id)), True
    dialog._render()
    assert_readable(dialog.question, True)
    _switch(studio_app, qtbot, "light")
    assert_readable(dialog.question, False)


def test_interview_notes_follow_the_theme(studio_app, qtbot):
    iv.save_interview(studio_app.tasks.collection, iv.InterviewDraft(
        datetime(2025, 5, 19, 20, tzinfo=ZoneInfo("Asia/Shanghai")), "Acme", "coding", notes_md=CODE_MD))
    _switch(studio_app, qtbot, "dark")
    pane = studio_app.window.show_pane("interviews")
    drain(qtbot, studio_app)
    pane.table.selectRow(0)
    assert_readable(pane.detail, True)
    _switch(studio_app, qtbot, "light")
    assert_readable(pane.detail, False)


def test_note_and_drill_statement_follow_a_theme_switch(studio_app, qtbot, tmp_path, monkeypatch):
    note = tmp_path / "code.md"
    note.write_text("# Code\n\n" + CODE_MD, encoding="utf-8")
    notes = studio_app.window.show_pane("notes")
    notes.show_target(str(note))
    drain(qtbot, studio_app)
    assert_readable(notes.browser, False)
    drills = studio_app.window.show_pane("drills")
    drain(qtbot, studio_app)
    drills.select_drill("softmax")
    drain(qtbot, studio_app)
    # No shipped statement has a code block yet: give this drill one.
    monkeypatch.setattr(type(drills.drill), "statement_for", lambda _self, _lang: CODE_MD)
    drills.show_statement()
    assert_readable(drills.statement, False)
    _switch(studio_app, qtbot, "dark")
    assert_readable(notes.browser, True)
    assert notes.current_path == note
    assert_readable(drills.statement, True)
