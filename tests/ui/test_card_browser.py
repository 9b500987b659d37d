"""The card browser: search syntax, sorting by header, bulk actions, editor with preview."""

from __future__ import annotations

from studio.ui.card_browser import CardBrowser
from tests.conftest import drain


def _browser(studio_app, qtbot):
    browser = CardBrowser(studio_app.window.ctx)
    qtbot.addWidget(browser)
    drain(qtbot, studio_app)
    return browser


def _search(browser, studio_app, qtbot, text):
    browser.search.setText(text)
    browser.run_search()
    drain(qtbot, studio_app)
    return browser.model.rows


def test_search_and_sort(studio_app, qtbot):
    browser = _browser(studio_app, qtbot)
    total = len(browser.model.rows)
    assert total > 100 and browser.model.columnCount() == 10
    rows = _search(browser, studio_app, qtbot, "tag:triton")
    assert 0 < len(rows) < total and all("triton" in r.tags.split() for r in rows)
    assert str(len(rows)) in browser.status.text()
    browser._sort(0)  # question, ascending
    drain(qtbot, studio_app)
    questions = [r.question for r in browser.model.rows]
    assert questions == sorted(questions)
    browser._sort(0)
    drain(qtbot, studio_app)
    assert [r.question for r in browser.model.rows] == sorted(questions, reverse=True)
    _search(browser, studio_app, qtbot, "prop:r<<")
    assert "prop" in browser.status.text()


def test_bulk_suspend_retag_delete(studio_app, qtbot):
    browser = _browser(studio_app, qtbot)
    _search(browser, studio_app, qtbot, "tag:nccl")
    browser.table.selectAll()
    n = len(browser.selected_ids())
    assert n > 0
    browser.set_suspended(True)
    drain(qtbot, studio_app)
    assert len(_search(browser, studio_app, qtbot, "is:suspended")) == n
    browser.table.selectAll()
    browser.retag_selected("drill-me -nccl")
    drain(qtbot, studio_app)
    assert len(_search(browser, studio_app, qtbot, "tag:drill-me")) == n
    assert _search(browser, studio_app, qtbot, "tag:nccl") == []
    _search(browser, studio_app, qtbot, "tag:drill-me")
    browser.table.selectRow(0)
    browser.delete_selected(confirm=False)
    drain(qtbot, studio_app)
    assert len(_search(browser, studio_app, qtbot, "tag:drill-me")) == n - 1


def test_new_card_with_live_preview_and_cloze(studio_app, qtbot):
    browser = _browser(studio_app, qtbot)
    editor = browser._editor(None)
    qtbot.addWidget(editor)
    editor.kind.setCurrentIndex(editor.kind.findData("cloze"))
    editor.fields["q_en"].setPlainText("A warp has {{c1::32}} threads\n\n```python\nx = 1\n```")
    editor.update_preview()
    text = editor.preview.toPlainText()
    assert "[…]" in text and "[32]" in text, "front hides the deletion, back shows it"
    editor.tags.setText("mine cuda")
    editor.save()
    drain(qtbot, studio_app)
    rows = _search(browser, studio_app, qtbot, "tag:mine")
    assert len(rows) == 1 and rows[0].is_new


def test_editor_reports_invalid_card(studio_app, qtbot):
    from studio.ui.card_editor import CardEditor

    editor = CardEditor(studio_app.window.ctx)
    qtbot.addWidget(editor)
    editor.fields["q_en"].setPlainText("Question without answer?")
    editor.save()
    drain(qtbot, studio_app)
    assert "answer" in editor.error.text()


def test_review_these_starts_a_session(studio_app, qtbot):
    studio_app.window.show_pane("review")  # the browser opens from the Review pane
    browser = _browser(studio_app, qtbot)
    _search(browser, studio_app, qtbot, "tag:nccl")
    browser.table.selectRow(0)
    wanted = browser.selected_ids()[0]
    browser.review_selected()
    drain(qtbot, studio_app)
    pane = studio_app.window.panes["review"]
    assert pane.card.id == wanted
