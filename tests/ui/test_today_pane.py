"""The Today pane: its numbers are core's on a constructed history, they agree with the
status bar and the review header, and each action opens the right pane with the right scope."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fsrs import Rating

from studio.core import interviews as iv
from studio.core import today as td
from studio.core.review import ReviewQueue
from tests.conftest import drain


def _today(studio_app, qtbot):
    window = studio_app.window
    pane = window.show_pane("today")
    drain(qtbot, studio_app)
    qtbot.waitUntil(lambda: pane.view is not None, timeout=10000)
    return window, pane


def test_opens_on_today_and_counts_agree_everywhere(studio_app, qtbot):
    col = studio_app.tasks.collection
    queue = ReviewQueue(col)
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    first = queue.next_card(now)
    queue.answer(first.id, Rating.Again, now=now, duration_ms=9000)  # one learning card, one review today
    window = studio_app.window
    assert window.current_pane_id() == "today"
    window.refresh_status()
    window, pane = _today(studio_app, qtbot)
    counts = td.queue_counts(col)
    assert counts["learning"] == 1 and counts["new"] >= 1
    parts = f"New {counts['new']} · Learning {counts['learning']} · Review {counts['review']}"
    assert pane.due_parts.text() == parts
    assert pane.due_total.text() == str(sum(counts.values()))
    assert pane.streak_label.text() == "1 days" and pane.heatmap.days == pane.view.heatmap
    assert window.due_label.text() == (f"Due: new {counts['new']} · learning {counts['learning']} · "
                                       f"review {counts['review']}")
    pane.review_button.click()
    drain(qtbot, studio_app)
    review = window.panes["review"]
    assert window.current_pane_id() == "review"
    assert review.scope.is_everything()
    assert review.counts_label.text() == parts


def test_prepare_opens_a_review_of_that_companys_cards(studio_app, qtbot):
    col = studio_app.tasks.collection
    now = datetime.now(timezone.utc).replace(microsecond=0)
    past = iv.save_interview(col, iv.InterviewDraft(now - timedelta(days=9), "Nimbus", "phone", questions=[
        iv.QuestionDraft("Explain paged attention", rating=2)]))
    question = next(i for i in iv.list_interviews(col) if i.id == past).questions[0]
    card_id = iv.card_from_question(col, question.id)
    iv.save_interview(col, iv.InterviewDraft(now + timedelta(days=1, hours=2), "Nimbus", "onsite"))
    window, pane = _today(studio_app, qtbot)
    assert [u.company for u in pane.view.upcoming] == ["Nimbus"]
    assert card_id in pane.view.upcoming[0].prep_card_ids
    pane.prepare_next()
    drain(qtbot, studio_app)
    review = window.panes["review"]
    assert window.current_pane_id() == "review"
    assert review.scope.ahead and review.scope.card_ids == pane.view.upcoming[0].prep_card_ids
    assert review.card is not None and review.card.id in review.scope.card_ids


def test_drill_and_roadmap_items_open_their_panes(studio_app, qtbot):
    col = studio_app.tasks.collection
    node = col.roadmap.areas[0].children[0]
    col.set_node_state(node.id, "learning")
    window, pane = _today(studio_app, qtbot)
    suggested = pane.view.drill
    assert suggested is not None and suggested.reason == "new"
    pane.open_drill()
    drain(qtbot, studio_app)
    drills = window.panes["drills"]
    assert window.current_pane_id() == "drills"
    qtbot.waitUntil(lambda: drills.drill is not None and drills.drill.id == suggested.drill_id, timeout=10000)
    assert not window.roadmap.isVisible() or not window.isVisible()
    window.show_pane("today")
    drain(qtbot, studio_app)
    assert pane.view.in_progress == [(node.id, node.title("en"))]
    pane.open_node(node.id)
    drain(qtbot, studio_app)
    assert window.current_pane_id() == "notes"
    assert window.roadmap_wanted("notes") and not window.roadmap_wanted("drills")


def test_roadmap_tree_belongs_to_notes_and_can_be_shown_elsewhere(studio_app, qtbot):
    window = studio_app.window
    window.show()
    for pane_id, shown in (("notes", True), ("drills", False), ("today", False)):
        window.show_pane(pane_id)
        assert window.roadmap.isVisible() == shown, pane_id
    window.show_pane("drills")
    window.roadmap_action.trigger()  # Ctrl+B
    assert window.roadmap.isVisible()
    window.show_pane("review")
    assert not window.roadmap.isVisible()
    window.show_pane("drills")
    assert window.roadmap.isVisible()  # remembered per pane
    drain(qtbot, studio_app, 60000)  # the panes opened here load their catalogues
