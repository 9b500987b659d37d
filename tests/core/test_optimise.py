"""FSRS parameters fitted to a synthetic log whose true memory model is known."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest
from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler
from sqlalchemy import text

pytest.importorskip("fsrs.optimizer")
pytest.importorskip("pandas")

from studio.core.optimise import (MIN_REVIEWS, OptimiseFailed, apply_parameters, evaluate, fit,  # noqa: E402
                                  review_count, review_logs, run_optimiser)
from studio.core.review import PARAMETERS_SETTING, ReviewQueue, fsrs_parameters  # noqa: E402

DEFAULT = Scheduler().parameters
# The learner's true memory: first-answer stabilities 5x the defaults (they remember far longer).
TRUE = tuple(w * 5 if i < 4 else w for i, w in enumerate(DEFAULT))


def _synthetic_history(col, cards: int = 120, reviews_each: int = 8, seed: int = 3, first_id: int = 1) -> None:
    """Reviews at the default scheduler's due dates; recall drawn from the TRUE model's retrievability.

    Card ids run from `first_id` (past the shipped cards' ids when the collection holds them)."""
    rng = random.Random(seed)
    truth, default = Scheduler(parameters=TRUE, enable_fuzzing=False), Scheduler(enable_fuzzing=False)
    t0 = datetime(2024, 1, 1, 8, tzinfo=timezone.utc)
    rows = []
    ids = range(first_id, first_id + cards)
    for cid in ids:
        at = t0 + timedelta(minutes=cid)
        true_card, sched_card = FsrsCard(card_id=cid, due=at), FsrsCard(card_id=cid, due=at)
        for n in range(reviews_each):
            if n == 0:
                rating = Rating.Good
            else:
                recalled = rng.random() < truth.get_card_retrievability(true_card, at)
                rating = Rating.Good if recalled else Rating.Again
            true_card, _ = truth.review_card(true_card, rating, at)
            sched_card, _ = default.review_card(sched_card, rating, at)
            rows.append({"card_id": cid, "rating": int(rating), "at": at.replace(tzinfo=None)})
            at = max(sched_card.due, at + timedelta(hours=1))
    with col.db.engine.begin() as conn:
        now = datetime(2024, 1, 1)
        conn.execute(text("INSERT INTO cards (id, key, source, deck, tags, kind, cloze_ord, level, q_en, a_en, q_zh, "
                          "a_zh, origin, created_at, modified_at, retired, suspended, flag, fsrs_state, reps, lapses, "
                          "due) VALUES (:id, :key, 'user', '', '', 'qa', 0, 2, :q, 'a', '', '', '', :now, :now, 0, 0, "
                          "0, 1, 0, 0, :now)"),
                     [{"id": c, "key": f"syn:{c}", "q": f"q{c}", "now": now} for c in ids])
        conn.execute(text("INSERT INTO review_log (card_id, rating, reviewed_at, mode, state_before, state_after, "
                          "was_new) VALUES (:card_id, :rating, :at, 'review', '{}', 2, 0)"), rows)


def test_fit_recovers_the_known_structure_and_lowers_the_loss(collection):
    _synthetic_history(collection)
    logs = review_logs(collection)
    assert len(logs) == 960 >= MIN_REVIEWS
    result = fit(logs, DEFAULT)
    assert len(result.parameters) == len(DEFAULT)
    # The truth fits its own data better than the defaults: the metrics can tell them apart.
    assert evaluate(logs, TRUE)["log_loss"] < evaluate(logs, DEFAULT)["log_loss"]
    assert result.after["log_loss"] < result.before["log_loss"]
    assert result.after["rmse"] < result.before["rmse"]


def test_child_process_fits_and_apply_changes_the_scheduler(collection):
    _synthetic_history(collection)
    result = run_optimiser(collection.db.path, timeout_s=900)
    assert result.reviews == 960 and result.after["log_loss"] < result.before["log_loss"]
    apply_parameters(collection, result)
    assert fsrs_parameters(collection) == tuple(result.parameters)
    assert collection.get_setting(PARAMETERS_SETTING)["after"] == result.after
    assert ReviewQueue(collection).scheduler().parameters == tuple(result.parameters)  # used from now on


def test_too_few_reviews_is_refused_with_a_reason(collection):
    assert review_count(collection) == 0
    with pytest.raises(OptimiseFailed, match="at least 400 are needed"):
        run_optimiser(collection.db.path, timeout_s=300)
