"""The review queue: FSRS scheduling through the app, limits, learning steps, undo, card actions."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

from studio.core.cards import CardDraft, create_card
from studio.core.models import ReviewLog, ReviewUndo
from studio.core.review import QueueScope, ReviewQueue, format_interval

T0 = datetime(2025, 3, 10, 12, 0, 0)  # naive UTC, noon: far from the 4am day boundary


def make_cards(col, n, tags=("gpu",), node="kernels.triton"):
    ids = []
    for i in range(n):
        ids += create_card(col, CardDraft(q_en=f"Question {i}?", a_en=f"Answer {i}", node_id=node, tags=list(tags)))
    return ids


def test_scheduling_matches_fsrs_called_directly(collection):
    (card_id,) = make_cards(collection, 1)
    queue = ReviewQueue(collection)
    reference = Scheduler(desired_retention=0.9, enable_fuzzing=False)
    ref_card = FsrsCard(card_id=card_id)
    now = T0
    for rating in (Rating.Good, Rating.Good, Rating.Again, Rating.Hard, Rating.Good, Rating.Easy, Rating.Good):
        ours = queue.answer(card_id, rating, now=now)
        ref_card, _ = reference.review_card(ref_card, rating, now.replace(tzinfo=timezone.utc))
        assert ours.fsrs_state == ref_card.state.value
        assert ours.stability == pytest.approx(ref_card.stability)
        assert ours.difficulty == pytest.approx(ref_card.difficulty)
        assert ours.due == ref_card.due.replace(tzinfo=None)
        now = ref_card.due.replace(tzinfo=None) + timedelta(hours=1)


def test_button_intervals_are_each_ratings_next_due(collection):
    (card_id,) = make_cards(collection, 1)
    queue = ReviewQueue(collection)
    card = queue.get(card_id)
    intervals = queue.preview_intervals(card, now=T0)
    assert [format_interval(intervals[r]) for r in (Rating.Again, Rating.Hard, Rating.Good)] == ["1m", "6m", "10m"]
    assert intervals[Rating.Easy] >= timedelta(days=1)
    # previewing does not change the stored card
    assert queue.get(card_id).last_review is None
    after = queue.answer(card_id, Rating.Good, now=T0)
    assert after.due - T0 == intervals[Rating.Good]


def test_learning_steps_bring_a_card_back_the_same_day(collection):
    (card_id,) = make_cards(collection, 1)
    queue = ReviewQueue(collection)
    queue.answer(card_id, Rating.Again, now=T0)
    card = queue.get(card_id)
    assert card.fsrs_state == State.Learning.value
    assert queue.next_card(now=T0 + timedelta(minutes=2)).id == card_id
    queue.answer(card_id, Rating.Good, now=T0 + timedelta(minutes=2))
    queue.answer(card_id, Rating.Good, now=T0 + timedelta(minutes=13))
    assert queue.get(card_id).fsrs_state == State.Review.value


def test_new_card_limit(collection):
    make_cards(collection, 5)
    queue = ReviewQueue(collection)
    queue.set_limits(new_per_day=2)
    assert queue.counts(now=T0)["new"] == 2
    for _ in range(2):
        queue.answer(queue.next_card(now=T0).id, Rating.Easy, now=T0)
    assert queue.counts(now=T0)["new"] == 0
    assert queue.next_card(now=T0) is None


def test_review_limit_counts_only_review_cards(collection):
    ids = make_cards(collection, 4)
    queue = ReviewQueue(collection)
    for card_id in ids:
        queue.answer(card_id, Rating.Easy, now=T0 - timedelta(days=30))
    later = T0 + timedelta(days=60)
    queue.set_limits(reviews_per_day=3, new_per_day=0)
    assert queue.counts(now=later)["review"] == 3
    for _ in range(3):
        queue.answer(queue.next_card(now=later).id, Rating.Good, now=later)
    assert queue.counts(now=later)["review"] == 0
    assert queue.next_card(now=later) is None


def test_limits_are_validated(collection):
    queue = ReviewQueue(collection)
    with pytest.raises(ValueError):
        queue.set_limits(desired_retention=0.5)
    with pytest.raises(ValueError):
        queue.set_limits(new_per_day=-1)
    with pytest.raises(ValueError):
        queue.set_limits(bogus=1)
    queue.set_limits(desired_retention=0.95)
    assert ReviewQueue(collection).limits()["desired_retention"] == 0.95


def test_higher_desired_retention_gives_shorter_intervals(collection):
    (card_id,) = make_cards(collection, 1)
    queue = ReviewQueue(collection)
    queue.answer(card_id, Rating.Easy, now=T0)
    card = queue.get(card_id)
    at = card.due
    loose = queue.preview_intervals(card, now=at)[Rating.Good]
    queue.set_limits(desired_retention=0.97)
    strict = queue.preview_intervals(card, now=at)[Rating.Good]
    assert strict < loose


def test_undo_restores_card_and_marks_log(collection):
    (card_id,) = make_cards(collection, 1)
    queue = ReviewQueue(collection)
    before = queue.get(card_id)
    queue.answer(card_id, Rating.Good, now=T0)
    assert queue.can_undo()
    assert queue.undo() == card_id
    after = queue.get(card_id)
    assert (after.fsrs_state, after.stability, after.reps, after.last_review) == \
        (before.fsrs_state, before.stability, before.reps, before.last_review)
    assert not queue.can_undo()
    with collection.db.session() as s:
        assert s.query(ReviewLog).count() == 1, "review logs are append-only; undo marks, never deletes"
        assert s.query(ReviewUndo).count() == 1
    assert queue.counts(now=T0)["new"] == 1


def test_suspend_bury_flag(collection):
    a, b, c = make_cards(collection, 3)
    queue = ReviewQueue(collection)
    queue.suspend(a)
    queue.bury(b, now=T0)
    queue.set_flag(c, 2)
    assert queue.next_card(now=T0).id == c
    assert queue.get(c).flag == 2
    assert queue.next_card(now=T0 + timedelta(days=1)).id == b, "a buried card returns the next day"
    queue.suspend(a, False)
    assert queue.next_card(now=T0).id == a
    with pytest.raises(ValueError):
        queue.set_flag(c, 9)


def test_scopes_node_and_tag(collection):
    make_cards(collection, 2, tags=("cuda",), node="kernels.cuda")
    (triton,) = make_cards(collection, 1, tags=("triton",), node="kernels.triton")
    assert ReviewQueue(collection, QueueScope(node_ids=["kernels.triton"])).next_card(now=T0).id == triton
    assert ReviewQueue(collection, QueueScope(tag="triton")).counts(now=T0)["new"] == 1
    assert ReviewQueue(collection, QueueScope(tag="cuda")).counts(now=T0)["new"] == 2
    assert ReviewQueue(collection, QueueScope(card_ids=[triton])).next_card(now=T0).id == triton


def test_lapse_counted_when_review_card_forgotten(collection):
    (card_id,) = make_cards(collection, 1)
    queue = ReviewQueue(collection)
    queue.answer(card_id, Rating.Easy, now=T0)
    due = queue.get(card_id).due
    card = queue.answer(card_id, Rating.Again, now=due)
    assert card.lapses == 1 and card.fsrs_state == State.Relearning.value


def test_format_interval():
    assert format_interval(timedelta(seconds=20)) == "1m"
    assert format_interval(timedelta(hours=3)) == "3h"
    assert format_interval(timedelta(days=4)) == "4d"
    assert format_interval(timedelta(days=75)) == "2.5mo"
    assert format_interval(timedelta(days=438)) == "1.2y"


def test_search_scope_uses_browser_language(collection):
    make_cards(collection, 2, tags=("cuda",), node="kernels.cuda")
    (triton,) = make_cards(collection, 1, tags=("triton",), node="kernels.triton")
    queue = ReviewQueue(collection, QueueScope(search="node:kernels -tag:cuda"))
    assert queue.counts(now=T0)["new"] == 1
    assert queue.next_card(now=T0).id == triton
    from studio.core.cards import SearchSyntaxError
    with pytest.raises(SearchSyntaxError):
        ReviewQueue(collection, QueueScope(search="is:bogus")).next_card(now=T0)


def test_cached_counts_match_a_fresh_count_after_many_answers(synced_collection):
    """The queue keeps its tallies current after each answer instead of recounting."""
    import random

    from fsrs import Rating

    from studio.core.review import ReviewQueue

    queue = ReviewQueue(synced_collection)
    queue.set_limits(new_per_day=40, reviews_per_day=500)
    rng = random.Random(3)
    queue.counts()
    for _ in range(60):
        card = queue.next_card()
        if card is None:
            break
        queue.answer(card.id, rng.choice([Rating.Again, Rating.Hard, Rating.Good, Rating.Easy]))
        assert queue.counts() == ReviewQueue(synced_collection).counts()
    queue.undo()
    assert queue.counts() == ReviewQueue(synced_collection).counts()


def test_node_scope_includes_cards_tagged_with_the_nodes_tags(synced_collection):
    from studio.core.cards import browse
    from studio.core.review import QueueScope, ReviewQueue

    roadmap = synced_collection.roadmap
    node = next(n for a in roadmap.areas for n in a.children if n.tags)
    scope = QueueScope.for_node(roadmap, node.id)
    assert set(node.tags) <= set(scope.node_tags)
    tagged = {r.id for t in node.tags for r in browse(synced_collection, f"tag:{t}")}
    on_node = {r.id for r in browse(synced_collection, f"node:{node.id}")}
    queue = ReviewQueue(synced_collection, scope)
    queue.set_limits(new_per_day=100000)
    assert queue.counts()["new"] == len(tagged | on_node)
