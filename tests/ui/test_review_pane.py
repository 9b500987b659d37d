"""The Review pane with real keys: reveal, grade, undo, suspend, bury, flag, sessions."""

from __future__ import annotations

from PySide6.QtCore import Qt

from studio.core.review import QueueScope
from tests.conftest import drain


def _pane(studio_app, qtbot):
    window = studio_app.window
    window.show()
    qtbot.waitExposed(window)
    pane = window.show_pane("review")
    drain(qtbot, studio_app)
    pane.setFocus()
    return pane


def _reviews(studio_app) -> int:
    return studio_app.tasks.call(lambda col: col.counts()["reviews"])


def test_space_reveals_number_grades_ctrl_z_undoes(studio_app, qtbot):
    pane = _pane(studio_app, qtbot)
    first = pane.card.id
    assert not pane.grade_buttons[0].isVisible()
    qtbot.keyClick(pane, Qt.Key_Space)
    assert pane.revealed and pane.grade_buttons[2].isVisible()
    assert "\n10m" in pane.grade_buttons[2].text() and "\n1m" in pane.grade_buttons[0].text()
    qtbot.keyClick(pane, Qt.Key_3)
    drain(qtbot, studio_app)
    assert _reviews(studio_app) == 1
    assert pane.card is not None and pane.card.id != first and not pane.revealed
    qtbot.keyClick(pane, Qt.Key_Z, Qt.ControlModifier)
    drain(qtbot, studio_app)
    assert pane.card.id == first and _reviews(studio_app) == 0


def test_number_key_before_reveal_does_nothing(studio_app, qtbot):
    pane = _pane(studio_app, qtbot)
    qtbot.keyClick(pane, Qt.Key_4)
    drain(qtbot, studio_app)
    assert _reviews(studio_app) == 0 and not pane.revealed


def test_suspend_and_bury_move_on(studio_app, qtbot):
    pane = _pane(studio_app, qtbot)
    first = pane.card.id
    pane.suspend_current()
    drain(qtbot, studio_app)
    second = pane.card.id
    assert second != first
    assert studio_app.tasks.call(lambda col: pane.queue.get(first).suspended)
    pane.bury_current()
    drain(qtbot, studio_app)
    assert pane.card.id not in (first, second)
    assert studio_app.tasks.call(lambda col: pane.queue.get(second).buried_until) is not None
    pane.flag_current(2)
    drain(qtbot, studio_app)
    assert pane.card.flag == 2 and "⚑" in pane.browser.toHtml()


def test_tag_and_search_sessions(studio_app, qtbot):
    pane = _pane(studio_app, qtbot)
    studio_app.bus.review_scope.emit(QueueScope(tag="triton"))
    drain(qtbot, studio_app)
    assert "triton" in pane.card.tags.split()
    pane.search_edit.setText("node:gpu")
    pane.search_edit.setFocus()
    qtbot.keyClick(pane.search_edit, Qt.Key_Return)
    drain(qtbot, studio_app)
    assert pane.card.node_id.startswith("gpu")
    pane.search_edit.setText("is:bogus")
    pane.search_edit.setFocus()
    qtbot.keyClick(pane.search_edit, Qt.Key_Return)
    drain(qtbot, studio_app)
    assert pane.card is None and "is:bogus" in pane.browser.toPlainText()


def test_edit_in_place_updates_shown_card(studio_app, qtbot):
    from studio.ui.card_editor import CardEditor

    pane = _pane(studio_app, qtbot)
    card_id = pane.card.id
    pane.edit_card(card_id)
    editor = pane.findChild(CardEditor)
    drain(qtbot, studio_app)
    editor.fields["q_en"].setPlainText("Edited question about `warps`?")
    editor.update_preview()
    assert "Edited question" in editor.preview.toPlainText()
    editor.save()
    drain(qtbot, studio_app)
    assert pane.card.id == card_id and "Edited question" in pane.browser.toPlainText()


def test_settings_dialog_changes_limits(studio_app, qtbot):
    from studio.ui.review_settings import ReviewSettingsDialog

    pane = _pane(studio_app, qtbot)
    dialog = ReviewSettingsDialog(pane.ctx, pane)
    drain(qtbot, studio_app)
    dialog.new_per_day.setValue(0)
    dialog.retention.setValue(0.95)
    dialog.language.setCurrentIndex(dialog.language.findData("en"))
    dialog.accepted.connect(lambda: pane.start(pane.scope))
    dialog.save()
    drain(qtbot, studio_app)
    limits = studio_app.tasks.call(lambda col: pane.queue.limits())
    assert limits["new_per_day"] == 0 and limits["desired_retention"] == 0.95
    assert pane.card is None, "no cards studied yet and no new cards allowed"
    assert studio_app.settings.get("card_language") == "en"


def test_card_made_from_an_interview_question_shows_where_it_was_asked(studio_app, qtbot):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from studio.core import interviews as iv
    from studio.core.review import QueueScope
    from tests.conftest import drain

    col = studio_app.tasks.collection
    iv.save_interview(col, iv.InterviewDraft(datetime(2025, 5, 19, 20, tzinfo=ZoneInfo("Asia/Shanghai")), "Acme",
                                             "2nd technical", questions=[iv.QuestionDraft("Explain warp divergence")]))
    card_id = iv.card_from_question(col, iv.list_interviews(col)[0].questions[0].id)
    pane = studio_app.window.show_pane("review")
    drain(qtbot, studio_app)
    pane.start(QueueScope(card_ids=[card_id]))
    drain(qtbot, studio_app)
    assert pane.card.id == card_id
    assert "Asked in: Acme 2nd technical (2025-05-19)" in pane.browser.toPlainText()


def test_cards_added_elsewhere_update_the_open_sessions_counts(studio_app, qtbot):
    from studio.core.cards import CardDraft, create_card
    from tests.conftest import drain

    pane = studio_app.window.show_pane("review")
    drain(qtbot, studio_app)
    pane.queue.set_limits(new_per_day=100000)
    before = pane.queue.counts()["new"]
    create_card(studio_app.tasks.collection, CardDraft(q_en="Q?", a_en="A."))
    studio_app.bus.data_changed.emit("cards")
    drain(qtbot, studio_app)
    assert pane.queue.counts()["new"] == before + 1


def test_the_apps_own_tags_are_shown_in_the_users_language(studio_app, qtbot):
    from studio.ui import i18n

    pane = _pane(studio_app, qtbot)
    assert pane.display_tags("imported triton interview") == "imported triton interview"
    i18n.install_translators("zh_CN")
    try:
        assert pane.display_tags("imported triton interview") == "导入 triton 面试"
        assert pane.display_tags("") == ""
    finally:
        i18n.install_translators("en")
