"""Today's numbers from core on a constructed history: due counts, streak, the next
interview with its preparation cards, the suggested drill."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from fsrs import Rating

from studio.core import interviews as iv
from studio.core import today as td
from studio.core.cards import CardDraft, create_card
from studio.core.drill_attempts import record_attempt
from studio.core.review import QueueScope, ReviewQueue

UTC = timezone.utc


@dataclass
class FakeDrill:
    id: str
    time_limit_min: int = 20
    error: str | None = None

    def title_for(self, lang: str) -> str:
        return f"{self.id} ({lang})"


def _cards(col, n: int, node: str | None = None, tags=None) -> list[int]:
    return [create_card(col, CardDraft(q_en=f"Q{i} {node}", a_en="A", node_id=node, tags=tags))[0] for i in range(n)]


def test_day_one_is_useful(collection):
    view = td.today_view(collection, [FakeDrill("a"), FakeDrill("b")])
    assert view.due.total == 0 and view.due.next_due is None
    assert view.streak == 0 and sum(view.heatmap.values()) == 0 and len(view.heatmap) == td.HEATMAP_DAYS
    assert view.upcoming == [] and view.attempts == [] and view.benches == []
    assert view.drill.drill_id == "a" and view.drill.reason == "new"


def test_due_counts_are_the_queues_and_minutes_follow_answer_times(collection):
    ids = _cards(collection, 5)
    now = datetime.now(UTC).replace(tzinfo=None)
    queue = ReviewQueue(collection)
    for card_id, seconds in zip(ids[:3], (6, 10, 30)):
        queue.answer(card_id, Rating.Again, now=now - timedelta(minutes=5), duration_ms=seconds * 1000)
    due = td.due_now(collection, now)
    assert {"new": due.new, "learning": due.learning, "review": due.review} == ReviewQueue(collection).counts(now)
    assert (due.new, due.learning) == (2, 3)
    assert due.seconds_per_card == 10.0  # the median answer, not the mean
    assert due.minutes == 1  # 5 cards x 10 s, rounded up


def test_streak_and_heatmap_from_reviews_on_consecutive_days(collection):
    ids = _cards(collection, 3)
    now = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
    for days_ago, card_id in ((0, ids[0]), (1, ids[1]), (2, ids[2])):
        ReviewQueue(collection).answer(card_id, Rating.Good, now=now - timedelta(days=days_ago), duration_ms=4000)
    view = td.today_view(collection, [], now=now)
    assert view.streak == 3
    assert sum(view.heatmap.values()) == 3 and view.reviews_total == 3
    assert view.drill is None


def test_nothing_due_says_when_the_next_card_is(collection):
    (card_id,) = _cards(collection, 1)
    now = datetime.now(UTC).replace(tzinfo=None)
    ReviewQueue(collection).answer(card_id, Rating.Easy, now=now - timedelta(days=1))
    due = td.due_now(collection, now)
    assert due.total == 0 and due.next_due is not None and due.next_due > now + timedelta(hours=12)
    # studying ahead reaches it (a card answered today would not be studied ahead again)
    assert ReviewQueue(collection, QueueScope(ahead=True)).next_card(now).id == card_id
    assert ReviewQueue(collection).next_card(now) is None


def test_next_interview_prepares_what_the_company_asked_and_the_weakest_topics(collection):
    now = datetime.now(UTC).replace(microsecond=0)
    past = iv.save_interview(collection, iv.InterviewDraft(now - timedelta(days=20), "Acme Labs", "phone", questions=[
        iv.QuestionDraft("How does FlashAttention tile?", node_id="kernels/flash", rating=4),
        iv.QuestionDraft("NCCL ring all-reduce cost?", node_id="dist/allreduce", rating=2)]))
    iv.save_interview(collection, iv.InterviewDraft(now - timedelta(days=40), "Other", "onsite", questions=[
        iv.QuestionDraft("KV cache size?", node_id="serving/kv", rating=1)]))
    iv.save_interview(collection, iv.InterviewDraft(now + timedelta(days=2, hours=3), "Acme Labs", "onsite"))
    asked_q = next(q for q in iv.list_interviews(collection) if q.id == past).questions[0]
    from_question = iv.card_from_question(collection, asked_q.id)
    on_node = _cards(collection, 1, node="dist/allreduce")
    weak = _cards(collection, 1, node="serving/kv")
    unrelated = _cards(collection, 2, node="other/topic")
    tagged = _cards(collection, 1, tags=["acme-labs"])
    ups = td.upcoming_interviews(collection, now.replace(tzinfo=None))
    assert [(u.company, u.what, u.kind) for u in ups] == [("Acme Labs", "onsite", "interview")]
    up = ups[0]
    assert timedelta(days=2) < up.countdown(now.replace(tzinfo=None)) < timedelta(days=3)
    assert set(up.prep_card_ids) >= {from_question, *on_node, *weak, *tagged}
    assert not set(up.prep_card_ids) & set(unrelated)
    assert td.weakest_topics(collection) == ["serving/kv", "dist/allreduce"]
    # the prepare session reaches these cards even when none is due
    queue = ReviewQueue(collection, td.prepare_scope(up))
    seen = set()
    for _ in range(len(up.prep_card_ids)):
        card = queue.next_card()
        seen.add(card.id)
        queue.answer(card.id, Rating.Easy)
    assert seen == set(up.prep_card_ids)


def test_suggested_drill_failed_last_then_never_tried_then_slowest(collection):
    drills = [FakeDrill("a", 20), FakeDrill("b", 10), FakeDrill("broken", error="bad yaml")]
    t0 = datetime(2026, 1, 1)

    def attempt(drill_id, passed, minutes=None, at=0):
        record_attempt(collection, {"drill": drill_id, "status": "passed" if passed else "failed", "mode": "interpreter"},
                       "code", time_to_pass_s=None if minutes is None else minutes * 60,
                       started_at=t0 + timedelta(hours=at))

    attempt("b", False, at=1)
    assert td.suggest_drill(drills, collection).drill_id == "b"
    assert td.suggest_drill(drills, collection).reason == "failed"
    attempt("b", True, minutes=15, at=2)  # passed, 1.5x its 10 min limit
    s = td.suggest_drill(drills, collection)
    assert (s.drill_id, s.reason) == ("a", "new")
    attempt("a", True, minutes=10, at=3)  # 0.5x its limit
    s = td.suggest_drill(drills, collection)
    assert (s.drill_id, s.reason, s.time_to_pass_s) == ("b", "slow", 900)
    assert td.recent_attempts(collection)[0]["drill_id"] == "a"


def test_roadmap_nodes_in_progress(synced_collection):
    col = synced_collection
    node = col.roadmap.areas[0].children[0]
    col.set_node_state(node.id, "learning")
    col.set_node_state(col.roadmap.areas[1].id, "done")
    assert td.in_progress(col, "en") == [(node.id, node.title("en"))]
    assert td.in_progress(col, "zh") == [(node.id, node.title("zh"))]
