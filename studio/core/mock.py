"""Timed mock interviews: questions drawn from chosen topics, self-graded, summarised.

Grades go through the same FSRS path as ordinary reviews (mode 'mock'), so a mock
interview is practice that counts. Each session is kept with its summary for history.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from fsrs import Rating
from sqlalchemy import select

from studio.core.collection import Collection, utcnow
from studio.core.models import Card, MockSession, ReviewLog
from studio.core.review import ReviewQueue


@dataclass
class MockAnswer:
    card_id: int
    node_id: str
    rating: int
    seconds: float
    notes: str = ""


@dataclass
class MockInterview:
    session_id: int
    card_ids: list[int]
    question_seconds: int
    answers: list[MockAnswer] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return len(self.answers) >= len(self.card_ids)

    def current_card_id(self) -> int | None:
        return None if self.finished else self.card_ids[len(self.answers)]


def start_mock(col: Collection, node_ids: list[str], count: int, question_seconds: int = 180,
               seed: int | None = None) -> MockInterview:
    """Pick `count` cards from the given roadmap subtrees (weakest first, then random)."""
    if count < 1:
        raise ValueError("A mock interview needs at least one question.")
    if question_seconds < 10:
        raise ValueError("Give each question at least 10 seconds.")
    roadmap = col.roadmap
    scope = {i for n in node_ids for i in ((roadmap.subtree_ids(n) if roadmap else []) or [n])}
    with col.db.session() as s:
        q = select(Card.id, Card.stability).where(Card.retired.is_(False), Card.suspended.is_(False),
                                                   Card.kind == "qa")
        if scope:
            q = q.where(Card.node_id.in_(scope))
        rows = s.execute(q).all()
        if not rows:
            raise ValueError("No cards in the chosen topics.")
        rng = random.Random(seed)
        rng.shuffle(rows)
        rows.sort(key=lambda r: r.stability if r.stability is not None else -1.0)  # new and weak first
        chosen = [r.id for r in rows[:count]]
        rng.shuffle(chosen)
        session = MockSession(started_at=utcnow(), topics=json.dumps(sorted(node_ids)),
                              question_seconds=question_seconds)
        s.add(session)
        s.commit()
        return MockInterview(session.id, chosen, question_seconds)


def answer_mock(col: Collection, mock: MockInterview, rating: Rating, seconds: float, notes: str = "") -> None:
    card_id = mock.current_card_id()
    if card_id is None:
        raise ValueError("This mock interview is already finished.")
    card = ReviewQueue(col).answer(card_id, rating, duration_ms=int(seconds * 1000), mode="mock",
                                   mock_session_id=mock.session_id)
    mock.answers.append(MockAnswer(card_id, card.node_id or "", int(rating), seconds, notes))


def finish_mock(col: Collection, mock: MockInterview) -> dict:
    """Store and return the summary: per-question time and grade, weakest topics first."""
    by_topic: dict[str, list[int]] = {}
    for a in mock.answers:
        by_topic.setdefault(a.node_id, []).append(a.rating)
    weakest = sorted(by_topic, key=lambda n: (sum(by_topic[n]) / len(by_topic[n]), n))
    summary = {
        "questions": [{"card_id": a.card_id, "node": a.node_id, "rating": a.rating,
                       "seconds": round(a.seconds, 1), "over_time": a.seconds > mock.question_seconds,
                       "notes": a.notes} for a in mock.answers],
        "answered": len(mock.answers),
        "asked": len(mock.card_ids),
        "average_seconds": round(sum(a.seconds for a in mock.answers) / len(mock.answers), 1) if mock.answers else 0,
        "average_grade": round(sum(a.rating for a in mock.answers) / len(mock.answers), 2) if mock.answers else 0,
        "weakest_topics": [{"node": n, "average_grade": round(sum(by_topic[n]) / len(by_topic[n]), 2)}
                           for n in weakest[:5]],
    }
    with col.db.session() as s, s.begin():
        session = s.get(MockSession, mock.session_id)
        session.ended_at = utcnow()
        session.summary = json.dumps(summary)
    return summary


def mock_history(col: Collection) -> list[dict]:
    with col.db.session() as s:
        rows = s.scalars(select(MockSession).order_by(MockSession.started_at.desc()))
        return [{"id": m.id, "started_at": m.started_at, "ended_at": m.ended_at,
                 "topics": json.loads(m.topics or "[]"), "summary": json.loads(m.summary or "{}")}
                for m in rows]


def mock_reviews(col: Collection, session_id: int) -> int:
    with col.db.session() as s:
        return len(s.scalars(select(ReviewLog.id).where(ReviewLog.mock_session_id == session_id)).all())
