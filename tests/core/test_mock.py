"""Mock interviews: choosing questions, timing, grades through FSRS, summary and history."""

from __future__ import annotations

import pytest
from fsrs import Rating

from studio.core.cards import CardDraft, create_card
from studio.core.mock import answer_mock, finish_mock, mock_history, mock_reviews, start_mock
from studio.core.review import ReviewQueue


@pytest.fixture
def topics(collection):
    ids = {"kernels": [], "perf": []}
    for n in range(4):
        ids["kernels"] += create_card(collection, CardDraft(q_en=f"Kernel Q{n}?", a_en="A", node_id="kernels.triton-model"))
        ids["perf"] += create_card(collection, CardDraft(q_en=f"Perf Q{n}?", a_en="A", node_id="perf.batching"))
    create_card(collection, CardDraft(q_en="{{c1::cloze}} only", kind="cloze", node_id="kernels"))
    return ids


def test_mock_draws_from_chosen_topics_only(collection, topics):
    mock = start_mock(collection, ["kernels"], 3, seed=1)
    assert len(mock.card_ids) == 3 and set(mock.card_ids) <= set(topics["kernels"]), "no cloze, no other topic"
    assert start_mock(collection, ["perf"], 10, seed=1).card_ids.__len__() == 4
    with pytest.raises(ValueError):
        start_mock(collection, ["no-such-topic"], 3)
    with pytest.raises(ValueError):
        start_mock(collection, ["kernels"], 0)
    with pytest.raises(ValueError):
        start_mock(collection, ["kernels"], 3, question_seconds=5)


def test_mock_flow_feeds_fsrs_and_history(collection, topics):
    mock = start_mock(collection, ["kernels", "perf"], 4, question_seconds=60, seed=7)
    grades = [Rating.Good, Rating.Again, Rating.Easy, Rating.Hard]
    for n, rating in enumerate(grades):
        card_id = mock.current_card_id()
        answer_mock(collection, mock, rating, seconds=30 + 20 * n, notes=f"note {n}")
        card = ReviewQueue(collection).get(card_id)
        assert card.reps == 1 and card.last_review is not None, "a mock grade is an FSRS review"
    assert mock.finished and mock.current_card_id() is None
    with pytest.raises(ValueError):
        answer_mock(collection, mock, Rating.Good, 1)
    summary = finish_mock(collection, mock)
    assert [q["rating"] for q in summary["questions"]] == [int(g) for g in grades]
    assert [q["over_time"] for q in summary["questions"]] == [False, False, True, True]
    assert summary["average_seconds"] == 60.0
    assert summary["weakest_topics"][0]["average_grade"] <= summary["weakest_topics"][-1]["average_grade"]
    assert mock_reviews(collection, mock.session_id) == 4
    history = mock_history(collection)
    assert history[0]["id"] == mock.session_id and history[0]["summary"]["answered"] == 4
    assert history[0]["ended_at"] is not None
