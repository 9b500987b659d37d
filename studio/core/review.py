"""Reviewing cards with FSRS: the queue, answering, undo.

Scheduling is the `fsrs` package's; this module only stores its state as real columns
and writes one append-only log row per answer. Each answer is committed before the
next card is fetched, so a crash loses at most the answer in flight. Undo restores the
card from the snapshot kept in its log row and marks that row undone.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State
from sqlalchemy import bindparam, func, literal_column, or_, select, text

from studio.core.collection import Collection, utcnow
from studio.core.models import Card, ReviewLog, ReviewUndo

RATINGS = (Rating.Again, Rating.Hard, Rating.Good, Rating.Easy)
_LEARNING_STATES = (State.Learning.value, State.Relearning.value)

DEFAULT_LIMITS = {"new_per_day": 20, "reviews_per_day": 200, "desired_retention": 0.9}


PARAMETERS_SETTING = "review.fsrs_parameters"  # the user's fitted FSRS weights (Review settings > Optimise)


def fsrs_parameters(col: Collection) -> tuple[float, ...] | None:
    """The user's fitted parameters, or None for the fsrs package's defaults."""
    stored = col.get_setting(PARAMETERS_SETTING, None)
    weights = stored.get("parameters") if isinstance(stored, dict) else None
    if isinstance(weights, list) and weights and all(isinstance(w, (int, float)) for w in weights):
        return tuple(float(w) for w in weights)
    return None


def make_scheduler(col: Collection, limits: dict | None = None) -> Scheduler:
    """FSRS with the user's desired retention and, once fitted, their own parameters."""
    limits = limits if limits is not None else {**DEFAULT_LIMITS, **(col.get_setting("review.limits", {}) or {})}
    retention = float(limits.get("desired_retention", DEFAULT_LIMITS["desired_retention"]))
    weights = fsrs_parameters(col)
    if weights is not None:
        try:
            return Scheduler(parameters=weights, desired_retention=retention, enable_fuzzing=False)
        except (ValueError, IndexError, TypeError):  # a stored set the installed fsrs refuses: the defaults rather than no review
            pass
    return Scheduler(desired_retention=retention, enable_fuzzing=False)


def _aware(dt: datetime | None) -> datetime | None:
    return None if dt is None else dt.replace(tzinfo=timezone.utc)


def _naive(dt: datetime | None) -> datetime | None:
    return None if dt is None else dt.astimezone(timezone.utc).replace(tzinfo=None)


def to_fsrs(card: Card) -> FsrsCard:
    return FsrsCard(
        card_id=card.id,
        state=State(card.fsrs_state),
        step=card.fsrs_step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=_aware(card.due),
        last_review=_aware(card.last_review),
    )


def _snapshot(card: Card) -> str:
    return json.dumps({
        "fsrs_state": card.fsrs_state, "fsrs_step": card.fsrs_step, "stability": card.stability,
        "difficulty": card.difficulty, "due": card.due.isoformat() if card.due else None,
        "last_review": card.last_review.isoformat() if card.last_review else None,
        "reps": card.reps, "lapses": card.lapses,
    })


def _restore(card: Card, snap: str) -> None:
    data = json.loads(snap)
    for key in ("fsrs_state", "fsrs_step", "stability", "difficulty", "reps", "lapses"):
        setattr(card, key, data[key])
    card.due = datetime.fromisoformat(data["due"]) if data["due"] else utcnow()
    card.last_review = datetime.fromisoformat(data["last_review"]) if data["last_review"] else None


_CARDS = Card.__table__
_CARD_BY_ID = select(_CARDS).where(_CARDS.c.id == bindparam("card_id"))
_UPDATE_SCHEDULE = _CARDS.update().where(_CARDS.c.id == bindparam("card_id")).values(
    fsrs_state=bindparam("new_state"), fsrs_step=bindparam("new_step"), stability=bindparam("new_stability"),
    difficulty=bindparam("new_difficulty"), due=bindparam("new_due"), last_review=bindparam("new_last_review"),
    reps=bindparam("new_reps"), lapses=bindparam("new_lapses"))
_INSERT_LOG = ReviewLog.__table__.insert()


@dataclass
class QueueScope:
    """Which cards a session draws from: everything, a node subtree, a tag, or a search."""

    node_ids: list[str] | None = None
    tag: str | None = None
    card_ids: list[int] | None = None
    search: str | None = None  # the browser's search language
    node_tags: list[str] | None = None  # with node_ids: cards carrying these tags belong too
    ahead: bool = False  # study ahead: cards count as due whenever they fall due (interview prep)

    @classmethod
    def for_node(cls, roadmap, node_id: str) -> QueueScope:
        """A roadmap node's cards: its subtree's cards plus cards tagged with the subtree's tags."""
        ids = roadmap.subtree_ids(node_id)
        tags = sorted({t for i in ids for t in roadmap.nodes[i].tags})
        return cls(node_ids=ids, node_tags=tags or None)

    def is_everything(self) -> bool:
        return self.node_ids is None and not self.tag and self.card_ids is None and not self.search

    def apply(self, query, now: datetime | None = None, cutoff: datetime | None = None):
        if self.node_ids is not None:
            on_node = Card.node_id.in_(self.node_ids)
            if self.node_tags:
                tagged = [(" " + Card.tags + " ").like(f"% {t} %") for t in self.node_tags]
                on_node = or_(on_node, *tagged)
            query = query.where(on_node)
        if self.tag:
            tag = self.tag.lower()
            query = query.where(or_(Card.tags == tag, Card.tags.like(f"{tag} %"),
                                    Card.tags.like(f"% {tag}"), Card.tags.like(f"% {tag} %")))
        if self.card_ids is not None:
            query = query.where(Card.id.in_(self.card_ids))
        if self.search:
            from studio.core.cards import compile_query

            now = now or utcnow()
            where, params = compile_query(self.search, now, cutoff or now)
            used = {k: v for k, v in params.items() if re.search(rf":{k}\b", where)}
            query = query.where(Card.id.in_(text(f"SELECT c.id FROM cards c WHERE {where}").bindparams(**used)))
        return query


def format_interval(delta: timedelta) -> str:
    """Anki-style short interval: 1m, 10m, 3h, 4d, 2.5mo, 1.2y."""
    seconds = max(delta.total_seconds(), 0)
    if seconds < 3600:
        return f"{max(1, round(seconds / 60))}m"
    if seconds < 86400:
        return f"{round(seconds / 3600)}h"
    days = seconds / 86400
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{days / 30:.1f}mo"
    return f"{days / 365:.1f}y"


class ReviewQueue:
    """The review session over a collection, with daily limits and undo."""

    def __init__(self, collection: Collection, scope: QueueScope | None = None):
        self.col = collection
        self.scope = scope or QueueScope()
        self._undo_stack: list[int] = []
        self._limits: dict | None = None
        self._scheduler: Scheduler | None = None
        self._tally_cache: tuple[datetime, dict[str, int]] | None = None
        self._statements: dict = {}  # queue id queries, built once (see _statement)

    # --- configuration -----------------------------------------------------------------
    def limits(self) -> dict:
        """Read once per session (a new session picks up changes made elsewhere)."""
        if self._limits is None:
            stored = self.col.get_setting("review.limits", {}) or {}
            self._limits = {**DEFAULT_LIMITS, **stored}
        return dict(self._limits)

    def set_limits(self, **values) -> None:
        limits = self.limits()
        for key, value in values.items():
            if key not in DEFAULT_LIMITS:
                raise ValueError(f"unknown limit {key!r}")
            if key == "desired_retention" and not 0.7 <= float(value) <= 0.99:
                raise ValueError("desired retention must be between 0.70 and 0.99")
            if key != "desired_retention" and int(value) < 0:
                raise ValueError(f"{key} cannot be negative")
            limits[key] = value
        self.col.set_setting("review.limits", limits)
        self._limits, self._scheduler = limits, None

    def scheduler(self) -> Scheduler:
        if self._scheduler is None:
            self._scheduler = make_scheduler(self.col, self.limits())
        return self._scheduler

    # --- queue -------------------------------------------------------------------------
    def _start_of_day(self, now: datetime) -> datetime:
        return self.col.end_of_today(now.replace(tzinfo=timezone.utc)) - timedelta(days=1)

    def _cutoff(self, now: datetime) -> datetime:
        """Cards due before this are due in this session: the end of today, or far ahead."""
        end = self.col.end_of_today(now.replace(tzinfo=timezone.utc))
        return end + timedelta(days=36500) if self.scope.ahead else end

    def _done_today(self, session, now: datetime, new: bool) -> int:
        """New cards introduced, or review-state cards answered, since the day began.

        As in Anki, answers to cards still in learning count against neither limit.
        """
        undone = select(ReviewUndo.review_id)
        kind = (ReviewLog.was_new.is_(True) if new else
                (ReviewLog.was_new.is_(False)
                 & (func.json_extract(ReviewLog.state_before, "$.fsrs_state") == State.Review.value)))
        return int(session.scalar(
            select(func.count(ReviewLog.id)).where(
                ReviewLog.reviewed_at >= self._start_of_day(now), kind, ReviewLog.id.not_in(undone),
            )
        ) or 0)

    def _base(self, now, studied: bool | None = None, columns=None, cutoff=None):
        """Active cards of this session's scope; `studied` picks new (False) or studied (True).

        The conditions are written to match the partial indexes of migration 0002
        (`retired = 0 AND suspended = 0` plus `last_review IS [NOT] NULL`), so SQLite
        answers queue questions from the index instead of scanning every card.
        """
        q = select(*(columns if columns is not None else (Card,)))
        if columns is not None:
            q = q.select_from(Card)
        if studied is True:
            q = q.where(Card.last_review.is_not(None))
        elif studied is False:
            q = q.where(Card.last_review.is_(None))
        q = q.where(Card.retired == literal_column("0"), Card.suspended == literal_column("0"))
        q = q.where(or_(Card.buried_until.is_(None), Card.buried_until <= now))
        if self.scope.ahead:  # a card answered today is not studied ahead again (only relearned)
            q = q.where(or_(Card.last_review.is_(None), Card.fsrs_state != State.Review.value,
                            Card.last_review < self._start_of_day(now)))
        return self.scope.apply(q, now, cutoff if cutoff is not None else self._cutoff(now))

    def _tally(self, session, now: datetime) -> dict[str, int]:
        """Cards per queue due today and answers counted against today's limits.

        Computed once per day and session, then kept current by `answer()`; anything
        else that moves cards (undo, suspend, bury, edits elsewhere) calls `invalidate()`.
        """
        cutoff = self._cutoff(now)
        if self._tally_cache is not None and self._tally_cache[0] == cutoff:
            return self._tally_cache[1]
        count = (func.count(),)
        tally = {
            "learning": session.scalar(self._base(now, True, count).where(
                Card.fsrs_state.in_(_LEARNING_STATES), Card.due < cutoff)) or 0,
            "review": session.scalar(self._base(now, True, count).where(
                Card.fsrs_state == State.Review.value, Card.due < cutoff)) or 0,
            "new": session.scalar(self._base(now, False, count)) or 0,
            "done_new": self._done_today(session, now, True),
            "done_review": self._done_today(session, now, False),
        }
        self._tally_cache = (cutoff, tally)
        return tally

    def invalidate(self) -> None:
        """Forget the cached tallies (cards changed outside this queue)."""
        self._tally_cache = None

    def _bucket(self, state: int, due: datetime, studied: bool, cutoff: datetime) -> str | None:
        if not studied:
            return "new"
        if due >= cutoff:
            return None
        return "review" if state == State.Review.value else "learning"

    def counts(self, now: datetime | None = None) -> dict[str, int]:
        """New, learning and review cards left today under the limits."""
        now = now or utcnow()
        limits = self.limits()
        with self.col.db.engine.connect() as s:
            tally = self._tally(s, now)
        new_left = max(0, int(limits["new_per_day"]) - tally["done_new"])
        review_left = max(0, int(limits["reviews_per_day"]) - tally["done_review"])
        return {"new": min(tally["new"], new_left), "learning": int(tally["learning"]),
                "review": min(int(tally["review"]), review_left)}

    def next_card(self, now: datetime | None = None) -> Card | None:
        """Learning cards due now, then reviews due today, then new cards, within limits."""
        now = now or utcnow()
        cutoff = self._cutoff(now)
        limits = self.limits()
        values = {"now": now, "cutoff": cutoff}
        with self.col.db.engine.connect() as s:  # Core on a connection: no Session per card
            card_id = self._first_learning(s, now, cutoff, values, "learn_now")
            if card_id is None:
                tally = self._tally(s, now)
                if tally["done_review"] < int(limits["reviews_per_day"]):
                    card_id = s.execute(self._statement("review", now, cutoff), values).scalar()
                if card_id is None and tally["done_new"] < int(limits["new_per_day"]):
                    card_id = s.execute(self._statement("new", now, cutoff), values).scalar()
            if card_id is None:
                # Learning cards waiting for their step: show them early rather than end the session.
                card_id = self._first_learning(s, now, cutoff, values, "learn_today")
            if card_id is None:
                return None
            row = s.execute(_CARD_BY_ID, {"card_id": card_id}).mappings().first()
            return Card(**row) if row is not None else None

    def _statement(self, kind: str, now: datetime, cutoff: datetime, state: int | None = None):
        """The id query of one queue: kept for the session, with `now` and `cutoff` bound.

        Building a SQLAlchemy statement took longer than SQLite takes to answer it from the
        partial indexes (bench/trainer_scale.py, cProfile), so a session builds each once.
        A search or study-ahead scope puts real times in its conditions: built every call.
        """
        key = (kind, state)
        cached = self._statements.get(key)
        if cached is not None:
            return cached
        static = not self.scope.search and not self.scope.ahead
        at, until = (bindparam("now"), bindparam("cutoff")) if static else (now, cutoff)
        if kind == "new":
            q = self._base(at, False, (Card.id,), until).order_by(Card.id)
        else:
            q = self._base(at, True, (Card.id, Card.due), until)
            if kind == "review":
                q = q.where(Card.fsrs_state == State.Review.value, Card.due < until)
            else:
                q = q.where(Card.fsrs_state == state, Card.due <= at if kind == "learn_now" else Card.due < until)
            q = q.order_by(Card.due)
        q = q.limit(1)
        if static:
            self._statements[key] = q
        return q

    def _first_learning(self, session, now: datetime, cutoff: datetime, values: dict, kind: str) -> int | None:
        """The earliest-due learning or relearning card's id (one indexed seek per state)."""
        found = [session.execute(self._statement(kind, now, cutoff, state), values).first()
                 for state in _LEARNING_STATES]
        found = [row for row in found if row is not None]
        return min(found, key=lambda row: row[1])[0] if found else None

    def preview_intervals(self, card: Card, now: datetime | None = None) -> dict[Rating, timedelta]:
        """Each grade's next interval (review_card called once per rating on a copy)."""
        now_aware = (now or utcnow()).replace(tzinfo=timezone.utc)
        scheduler = self.scheduler()
        out = {}
        for rating in RATINGS:
            new_card, _ = scheduler.review_card(to_fsrs(card), rating, now_aware)
            out[rating] = new_card.due - now_aware
        return out

    def answer(self, card_id: int, rating: Rating, now: datetime | None = None,
               duration_ms: int | None = None, mode: str = "review", mock_session_id: int | None = None) -> Card:
        """Grade a card, store its new state and a log row, all in one commit."""
        now_naive = now or utcnow()
        now_aware = now_naive.replace(tzinfo=timezone.utc)
        # Core statements on one connection, not the ORM: loading and flushing the card through a
        # Session took most of an answer's time (bench/trainer_scale.py, cProfile).
        with self.col.db.engine.begin() as conn:
            row = conn.execute(_CARD_BY_ID, {"card_id": card_id}).mappings().first()
            if row is None:
                raise LookupError(f"card {card_id} does not exist")
            card = Card(**row)  # detached: what callers read (node, new state)
            was_new = card.last_review is None
            cutoff = self.col.end_of_today(now_aware)
            bucket_before = self._bucket(card.fsrs_state, card.due, not was_new, cutoff)
            if card.retired or card.suspended:
                bucket_before = None
            elapsed = None if was_new else (now_naive - card.last_review).total_seconds() / 86400
            before = _snapshot(card)
            state_before = card.fsrs_state
            new_card, _ = self.scheduler().review_card(to_fsrs(card), Rating(rating), now_aware)
            card.fsrs_state = new_card.state.value
            card.fsrs_step = new_card.step
            card.stability = new_card.stability
            card.difficulty = new_card.difficulty
            card.due = _naive(new_card.due)
            card.last_review = _naive(new_card.last_review)
            card.reps += 1
            if Rating(rating) == Rating.Again and not was_new and state_before == State.Review.value:
                card.lapses += 1
            conn.execute(_UPDATE_SCHEDULE, {
                "card_id": card.id, "new_state": card.fsrs_state, "new_step": card.fsrs_step,
                "new_stability": card.stability, "new_difficulty": card.difficulty, "new_due": card.due,
                "new_last_review": card.last_review, "new_reps": card.reps, "new_lapses": card.lapses})
            inserted = conn.execute(_INSERT_LOG, {
                "card_id": card.id, "rating": int(rating), "reviewed_at": now_naive, "duration_ms": duration_ms,
                "mode": mode, "mock_session_id": mock_session_id, "state_before": before,
                "state_after": card.fsrs_state, "stability_after": card.stability, "was_new": was_new,
                "elapsed_days": elapsed})
            self._undo_stack.append(inserted.inserted_primary_key[0])
        if self._tally_cache is not None and self._tally_cache[0] == cutoff and self.scope.is_everything():
            tally = self._tally_cache[1]
            if bucket_before is not None:
                tally[bucket_before] = max(0, tally[bucket_before] - 1)
                after = self._bucket(card.fsrs_state, card.due, True, cutoff)
                if after is not None:
                    tally[after] += 1
            if was_new:
                tally["done_new"] += 1
            elif state_before == State.Review.value:
                tally["done_review"] += 1
        else:
            self._tally_cache = None
        return card

    def can_undo(self) -> bool:
        return bool(self._undo_stack)

    def undo(self) -> int | None:
        """Undo the last answer of this session; return the card id to show again."""
        if not self._undo_stack:
            return None
        review_id = self._undo_stack.pop()
        self._tally_cache = None
        with self.col.db.session() as s, s.begin():
            row = s.get(ReviewLog, review_id)
            card = s.get(Card, row.card_id)
            _restore(card, row.state_before)
            s.add(ReviewUndo(review_id=review_id, undone_at=utcnow()))
            return card.id

    # --- card actions --------------------------------------------------------------------
    def suspend(self, card_id: int, suspended: bool = True) -> None:
        self._tally_cache = None
        with self.col.db.session() as s, s.begin():
            s.get(Card, card_id).suspended = suspended

    def bury(self, card_id: int, now: datetime | None = None) -> None:
        """Hide a card until the next day starts."""
        self._tally_cache = None
        now = now or utcnow()
        with self.col.db.session() as s, s.begin():
            s.get(Card, card_id).buried_until = self.col.end_of_today(now.replace(tzinfo=timezone.utc))

    def set_flag(self, card_id: int, flag: int) -> None:
        if not 0 <= flag <= 4:
            raise ValueError("flag must be 0 (none) to 4")
        with self.col.db.session() as s, s.begin():
            s.get(Card, card_id).flag = flag

    def get(self, card_id: int) -> Card | None:
        with self.col.db.session() as s:
            return s.get(Card, card_id)


def active_reviews(session):
    """Review log rows that were not undone."""
    return select(ReviewLog).where(ReviewLog.id.not_in(select(ReviewUndo.review_id)))


__all__ = ["ReviewQueue", "QueueScope", "RATINGS", "format_interval", "to_fsrs", "active_reviews", "make_scheduler",
           "fsrs_parameters", "PARAMETERS_SETTING"]
