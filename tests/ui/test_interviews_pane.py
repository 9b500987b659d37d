"""The Interviews pane end to end: form validation, filters, delete/undo, cards, charts, export."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from PySide6.QtWidgets import QInputDialog, QMessageBox

from studio.core import interviews as iv
from tests.conftest import drain

SH = ZoneInfo("Asia/Shanghai")


def _seed(app):
    q = iv.QuestionDraft
    col = app.tasks.collection
    iv.save_interview(col, iv.InterviewDraft(datetime(2025, 5, 19, 20, tzinfo=SH), "Acme", "1st technical",
                                             result="rejected", questions=[q("写一个 softmax", "kernels.triton-model", 3,
                                                                             True, "softmax")]))
    iv.save_interview(col, iv.InterviewDraft(datetime(2025, 6, 2, 10, tzinfo=SH), "Bolt", "HR", result="offer"))


def _pane(app, qtbot):
    pane = app.window.show_pane("interviews")
    drain(qtbot, app)
    return pane


def test_table_is_newest_first_and_filters(studio_app, qtbot):
    _seed(studio_app)
    pane = _pane(studio_app, qtbot)
    pane.refresh()
    drain(qtbot, studio_app)
    assert [pane.table.item(r, 1).text() for r in range(pane.table.rowCount())] == ["Bolt", "Acme"]
    pane.status.setCurrentIndex(pane.status.findData("offer"))
    assert pane.table.rowCount() == 1 and pane.table.item(0, 1).text() == "Bolt"
    pane.status.setCurrentIndex(0)
    pane.search.setText("softmax")
    assert pane.table.rowCount() == 1 and pane.table.item(0, 1).text() == "Acme"


def test_form_validation_shows_inline_errors_and_saves_nothing(studio_app, qtbot, monkeypatch):
    from studio.ui.interview_form import InterviewForm

    form = InterviewForm(studio_app.window)
    qtbot.addWidget(form)
    form.when.setText("garbage date")
    form.try_accept()
    assert form.result() == 0 and form.result_draft is None
    assert form.errors["company"].isVisibleTo(form) and "required" in form.errors["company"].text()
    assert "cannot read" in form.errors["starts_at"].text()
    # a date with no year asks for it
    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: (2025, True))
    form.when.setText("5/19 20：00")
    form.company.setText("Acme")
    form.try_accept()
    assert form.result_draft is not None
    assert form.result_draft.starts_at == datetime(2025, 5, 19, 20, 0, tzinfo=form.result_draft.starts_at.tzinfo)


def test_delete_asks_and_can_be_undone(studio_app, qtbot, monkeypatch):
    _seed(studio_app)
    pane = _pane(studio_app, qtbot)
    pane.refresh()
    drain(qtbot, studio_app)
    pane.table.selectRow(0)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.No)
    pane.delete_selected()
    drain(qtbot, studio_app)
    assert pane.table.rowCount() == 2
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    pane.table.selectRow(0)
    pane.delete_selected()
    drain(qtbot, studio_app)
    qtbot.waitUntil(lambda: pane.table.rowCount() == 1)
    assert pane.undo_button.isVisibleTo(pane)
    pane.undo_delete()
    drain(qtbot, studio_app)
    qtbot.waitUntil(lambda: pane.table.rowCount() == 2)


def test_make_card_and_practise_drill(studio_app, qtbot):
    _seed(studio_app)
    pane = _pane(studio_app, qtbot)
    pane.refresh()
    drain(qtbot, studio_app)
    row = next(r for r in range(pane.table.rowCount()) if pane.table.item(r, 1).text() == "Acme")
    pane.table.selectRow(row)
    pane.questions.setCurrentRow(0)
    drills = []
    studio_app.bus.open_drill.connect(drills.append)
    pane.practise_drill()
    assert drills == ["softmax"]
    pane.card_from_question()
    drain(qtbot, studio_app)
    from studio.core.cards import browse

    rows = browse(studio_app.tasks.collection, "tag:interview")
    assert len(rows) == 1 and rows[0].question_zh == "写一个 softmax"
    assert studio_app.window.current_pane_id() == "drills"


def test_charts_compute_from_the_log(studio_app, qtbot):
    _seed(studio_app)
    pane = _pane(studio_app, qtbot)
    pane.refresh()
    drain(qtbot, studio_app)
    pane.tabs.setCurrentIndex(1)
    drain(qtbot, studio_app)
    data = pane.charts.data
    assert data["funnel"]["rejected"] == 1 and data["funnel"]["offer"] == 1
    assert sum(data["weeks"].values()) == 2
    assert data["topics"] == [("kernels.triton-model", 1, 3.0)]
    assert pane.charts.topics.item(0, 0).text() == "kernels.triton-model"


def test_intro_draft_saved_with_speaking_estimate(studio_app, qtbot):
    pane = _pane(studio_app, qtbot)
    pane.tabs.setCurrentIndex(2)
    pane.intro_lang.setCurrentIndex(pane.intro_lang.findData("en"))
    pane.intro_title.setText("one minute")
    pane.intro_body.setPlainText("word " * 150)
    assert "60" in pane.intro_estimate.text()
    pane._save_intro()
    drain(qtbot, studio_app)
    qtbot.waitUntil(lambda: pane.intro_list.count() == 1)
    assert "one minute" in pane.intro_list.item(0).text()


def test_upcoming_interview_shows_in_status_bar(studio_app, qtbot):
    from datetime import timedelta, timezone

    from studio.core.collection import utcnow

    soon = (utcnow() + timedelta(days=2)).replace(tzinfo=timezone.utc)
    iv.save_interview(studio_app.tasks.collection, iv.InterviewDraft(soon, "Nimbus", "2nd technical"))
    studio_app.bus.data_changed.emit("interviews")
    drain(qtbot, studio_app)
    assert "Nimbus" in studio_app.window.upcoming_label.text()
