"""Mock interview end to end with key presses: setup, countdown, notes, reveal, grade, summary."""

from __future__ import annotations

from PySide6.QtCore import Qt

from studio.ui.mock_interview import MockInterviewDialog
from tests.conftest import drain


def test_mock_interview_end_to_end(studio_app, qtbot):
    dialog = MockInterviewDialog(studio_app.window.ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    drain(qtbot, studio_app)
    assert dialog.topic_list.count() >= 10
    assert "No mock interviews" in dialog.history.toPlainText()
    kernels = next(i for i in range(dialog.topic_list.count()) if dialog.topic_list.item(i).data(Qt.UserRole) == "kernels")
    dialog.topic_list.item(kernels).setCheckState(Qt.Checked)
    dialog.count.setValue(3)
    dialog.minutes.setValue(2.0)
    qtbot.mouseClick(dialog.start_button, Qt.LeftButton)
    drain(qtbot, studio_app)
    assert dialog.pages.currentIndex() == 1
    assert dialog.countdown.text() in ("02:00", "01:59")
    assert "Question 1 of 3" in dialog.progress.text()
    for n, key in enumerate((Qt.Key_3, Qt.Key_1, Qt.Key_4)):
        assert dialog.card.node_id.startswith("kernels")
        qtbot.keyClicks(dialog.notes, f"notes {n}")  # typing digits/space in notes must not grade
        assert not dialog.revealed
        qtbot.keyClick(dialog.notes, Qt.Key_Return, Qt.ControlModifier)
        assert dialog.revealed and dialog.grade_buttons[0].isVisible()
        qtbot.keyClick(dialog, key)
        drain(qtbot, studio_app)
        drain(qtbot, studio_app)
    assert dialog.pages.currentIndex() == 2
    summary = dialog.summary
    assert [q["rating"] for q in summary["questions"]] == [3, 1, 4]
    assert summary["questions"][0]["notes"] == "notes 0"
    assert summary["weakest_topics"]
    assert "Weakest topics" in dialog.summary_view.toPlainText()
    counts = studio_app.tasks.call(lambda col: col.counts())
    assert counts["reviews"] == 3, "mock grades are FSRS reviews"
    assert "3/3" in dialog.history.toPlainText()


def test_space_reveals_when_notes_not_focused_and_countdown_runs_over(studio_app, qtbot):
    dialog = MockInterviewDialog(studio_app.window.ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    drain(qtbot, studio_app)
    dialog.count.setValue(1)
    dialog.start()
    drain(qtbot, studio_app)
    dialog.started_at -= 200  # pretend the clock ran past three minutes
    dialog._tick()
    assert "+" in dialog.countdown.text()
    dialog.setFocus()
    qtbot.keyClick(dialog, Qt.Key_Space)
    assert dialog.revealed
    qtbot.keyClick(dialog, Qt.Key_2)
    drain(qtbot, studio_app)
    drain(qtbot, studio_app)
    assert dialog.summary["questions"][0]["over_time"] is True
