"""Statistics on a constructed review history (UTC days, fixed dates)."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest
from fsrs import Rating

from studio.core import stats
from studio.core.cards import CardDraft, create_card
from studio.core.models import ReviewLog
from studio.core.review import ReviewQueue

UTC = timezone.utc
DAY1 = datetime(2025, 3, 1, 12, 0)
TODAY = date(2025, 3, 6)
NOW = datetime(2025, 3, 6, 23, 0)


@pytest.fixture
def history(collection):
    """A: new Easy 03-01, Good 03-05. B: new Good+Good 03-01, Again+Good 03-06. C: new Again 03-06."""
    def card(node):
        return create_card(collection, CardDraft(q_en="Q?", a_en="A", node_id=node))[0]

    a, b, c = card("kernels.triton-model"), card("kernels.triton-model.masks"), card("perf.batching")
    q = ReviewQueue(collection)
    q.answer(a, Rating.Easy, now=DAY1)
    q.answer(b, Rating.Good, now=DAY1)
    q.answer(b, Rating.Good, now=DAY1 + timedelta(minutes=10))
    q.answer(a, Rating.Good, now=datetime(2025, 3, 5, 9, 0))
    q.answer(b, Rating.Again, now=datetime(2025, 3, 6, 9, 0))
    q.answer(b, Rating.Good, now=datetime(2025, 3, 6, 9, 20))
    q.answer(c, Rating.Again, now=datetime(2025, 3, 6, 10, 0))
    q.answer(c, Rating.Good, now=datetime(2025, 3, 6, 10, 1))
    assert q.undo() == c, "the undone answer must not be counted anywhere"
    return {"a": a, "b": b, "c": c, "queue": q}


def test_reviews_per_day_and_streak(collection, history):
    per_day = stats.reviews_per_day(collection, days=7, tz=UTC, today=TODAY)
    assert list(per_day) == [date(2025, 2, 28) + timedelta(days=i) for i in range(7)]
    assert per_day[date(2025, 3, 1)] == 3
    assert per_day[date(2025, 3, 5)] == 1
    assert per_day[TODAY] == 3
    assert sum(per_day.values()) == 7
    assert stats.streak(collection, tz=UTC, today=TODAY) == 2
    assert stats.streak(collection, tz=UTC, today=TODAY + timedelta(days=1)) == 2, "today not yet reviewed"
    assert stats.streak(collection, tz=UTC, today=TODAY + timedelta(days=2)) == 0


def test_answer_buttons(collection, history):
    buttons = stats.answer_buttons(collection, days=30, now=NOW)
    assert buttons["learning"] == {1: 1, 2: 0, 3: 3, 4: 1}  # A Easy, B Good x2, C Again, B relearn Good
    assert buttons["review"] == {1: 1, 2: 0, 3: 1, 4: 0}  # A Good, B Again


def test_true_retention_young_and_mature(collection, history):
    ret = stats.true_retention(collection, days=30, tz=UTC, now=NOW)
    assert (ret.young_passed, ret.young_total) == (1, 2)
    assert ret.young == 0.5 and ret.mature is None
    # a mature review (interval of 30 days) passed, plus a second one that day which must be ignored
    before = json.dumps({"fsrs_state": 2, "fsrs_step": None, "stability": 40.0, "difficulty": 5.0,
                         "due": "2025-03-06T08:00:00", "last_review": "2025-02-04T08:00:00", "reps": 5, "lapses": 0})
    with collection.db.session() as s, s.begin():
        for minute, rating in ((0, 3), (5, 1)):
            s.add(ReviewLog(card_id=history["c"], rating=rating, reviewed_at=datetime(2025, 3, 6, 8, minute),
                            state_before=before, state_after=2, was_new=False))
    ret = stats.true_retention(collection, days=30, tz=UTC, now=NOW)
    assert (ret.mature_passed, ret.mature_total) == (1, 1)
    assert ret.overall == pytest.approx(2 / 3)


def test_due_forecast_counts_studied_cards_overdue_as_today(collection, history):
    forecast = stats.due_forecast(collection, days=400, tz=UTC, today=TODAY + timedelta(days=3))
    assert sum(forecast.values()) == 3, "A, B and C are studied (only C's second answer was undone)"
    b_due = history["queue"].get(history["b"]).due.date()
    assert b_due < TODAY + timedelta(days=3)
    assert forecast[TODAY + timedelta(days=3)] >= 1


def test_mastery_by_area(collection, history):
    # right after the answers every studied card is above 0.9; an unstudied card never is
    create_card(collection, CardDraft(q_en="Q?", a_en="A", node_id="perf"))
    mastery = stats.mastery_by_area(collection, now=datetime(2025, 3, 6, 11, 0))
    assert mastery["kernels"] == (2, 2)
    assert mastery["perf"] == (1, 2)
    far = stats.mastery_by_area(collection, now=datetime(2026, 3, 6))
    assert far["kernels"] == (0, 2) and far["perf"] == (0, 2)
    assert all(total == 0 for area, (_, total) in far.items() if area not in ("kernels", "perf"))


def test_overview_bundles_everything(collection, history):
    view = stats.overview(collection, tz=UTC, today=TODAY, now=NOW)
    assert view.streak == 2 and view.counts["reviews"] == 7
    assert len(view.per_day) == 365 and len(view.forecast) == 30
