"""What to do today: everything the Today pane shows, computed in one call (no Qt here).

- due now: the review queue's own counts (new, learning, review, within the daily
  limits), so the status bar, Today and the review header always agree; an estimate in
  minutes from the user's median answer time (12 s a card before there is any); when
  nothing is due, when the next card falls due;
- the streak and the last 12 weeks of reviews per day (the small heatmap);
- upcoming interviews and follow-ups (next 30 days) with the cards to prepare: cards
  made from what that company asked before, cards on the roadmap nodes it asked about,
  cards tagged with the company, and cards on the topics rated weakest in any interview;
- a suggested drill: the one whose last attempt failed, else one never attempted, else
  the passed drill slowest against its time limit;
- roadmap nodes marked in progress, the last drill attempts and bench runs.
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo

from sqlalchemy import func, or_, select

from studio.core.collection import Collection, utcnow
from studio.core.models import BenchRun, Card, DrillAttempt, Interview, InterviewQuestion, NodeProgress, ReviewLog
from studio.core.review import QueueScope, ReviewQueue

DEFAULT_SECONDS_PER_CARD = 12.0
HEATMAP_DAYS = 84
WEAK_RATING = 3.0  # self-ratings 1..5: a topic averaging at or below this is weak
WEAKEST_TOPICS = 3


@dataclass
class DueNow:
    new: int
    learning: int
    review: int
    minutes: int
    seconds_per_card: float
    next_due: datetime | None  # UTC, when nothing is due: the next card's due time

    @property
    def total(self) -> int:
        return self.new + self.learning + self.review


@dataclass
class Upcoming:
    interview_id: int
    when: datetime  # UTC
    kind: str  # interview | next_step
    company: str
    what: str  # the round, or the follow-up's description
    prep_card_ids: list[int] = field(default_factory=list)
    prep_topics: list[str] = field(default_factory=list)  # roadmap node ids

    def countdown(self, now: datetime) -> timedelta:
        return self.when - now


@dataclass
class DrillSuggestion:
    drill_id: str
    title: str
    reason: str  # failed | new | slow
    time_limit_min: int = 0
    time_to_pass_s: float | None = None


@dataclass
class Today:
    due: DueNow
    streak: int
    heatmap: dict[date, int]
    upcoming: list[Upcoming]
    drill: DrillSuggestion | None
    in_progress: list[tuple[str, str]]  # (node id, title) in the content language
    attempts: list[dict]
    benches: list[dict]
    reviews_total: int


def queue_counts(col: Collection, now: datetime | None = None) -> dict[str, int]:
    """New, learning and review cards left today: the numbers every view shows."""
    return ReviewQueue(col, QueueScope()).counts(now)


def seconds_per_card(col: Collection, last: int = 200) -> float:
    """The median answer time of the last `last` answers (clipped to 3..120 s), or the default."""
    with col.db.session() as s:
        times = [ms for ms in s.scalars(select(ReviewLog.duration_ms).where(ReviewLog.duration_ms.is_not(None))
                                        .order_by(ReviewLog.id.desc()).limit(last)) if ms and ms > 0]
    if not times:
        return DEFAULT_SECONDS_PER_CARD
    return min(120.0, max(3.0, statistics.median(times) / 1000))


def due_now(col: Collection, now: datetime | None = None) -> DueNow:
    now = now or utcnow()
    counts = queue_counts(col, now)
    per_card = seconds_per_card(col)
    total = counts["new"] + counts["learning"] + counts["review"]
    next_due = None
    if total == 0:
        with col.db.session() as s:
            next_due = s.scalar(select(func.min(Card.due)).where(
                Card.retired.is_(False), Card.suspended.is_(False), Card.last_review.is_not(None), Card.due > now))
    return DueNow(counts["new"], counts["learning"], counts["review"], math.ceil(total * per_card / 60),
                  per_card, next_due)


def company_tag(company: str) -> str:
    """The tag cards made from a company's questions carry (interviews.card_from_question)."""
    return re.sub(r"\W+", "-", company.lower()).strip("-")


def weakest_topics(col: Collection, limit: int = WEAKEST_TOPICS) -> list[str]:
    """Roadmap nodes with the lowest average self-rating in interviews (at most WEAK_RATING)."""
    with col.db.session() as s:
        rows = s.execute(select(InterviewQuestion.node_id, func.avg(InterviewQuestion.rating))
                         .join(Interview).where(Interview.deleted_at.is_(None), InterviewQuestion.node_id.is_not(None),
                                                InterviewQuestion.rating.is_not(None))
                         .group_by(InterviewQuestion.node_id)).all()
    weak = sorted((avg, node) for node, avg in rows if avg is not None and avg <= WEAK_RATING)
    return [node for _avg, node in weak[:limit]]


def prep_cards(col: Collection, company: str, now: datetime | None = None) -> tuple[list[int], list[str]]:
    """Card ids to prepare for an interview at `company`, and the roadmap nodes they come from.

    What the company asked before (the cards made from its questions, and the nodes those
    questions were filed under), cards tagged with the company, and the weakest topics.
    """
    now = now or utcnow()
    with col.db.session() as s:
        asked = s.execute(select(InterviewQuestion.card_id, InterviewQuestion.node_id).join(Interview).where(
            Interview.deleted_at.is_(None), func.lower(Interview.company) == company.strip().lower(),
            Interview.starts_at <= now)).all()
    card_ids = {card for card, _node in asked if card is not None}
    nodes = sorted({node for _card, node in asked if node})
    for node in weakest_topics(col):
        if node not in nodes:
            nodes.append(node)
    tag = company_tag(company)
    with col.db.session() as s:
        conditions = []
        if nodes:
            conditions.append(Card.node_id.in_(nodes))
        if tag:
            conditions.append(or_(Card.tags == tag, Card.tags.like(f"{tag} %"), Card.tags.like(f"% {tag}"),
                                  Card.tags.like(f"% {tag} %")))
        if conditions:
            card_ids |= set(s.scalars(select(Card.id).where(Card.retired.is_(False), Card.suspended.is_(False),
                                                            or_(*conditions))))
    return sorted(card_ids), nodes


def upcoming_interviews(col: Collection, now: datetime | None = None, days: int = 30) -> list[Upcoming]:
    from studio.core.interviews import upcoming

    now = now or utcnow()
    out = []
    for when, kind, row in upcoming(col, days, now):
        cards, topics = prep_cards(col, row.company, now)
        out.append(Upcoming(row.id, when, kind, row.company, (row.round if kind == "interview" else row.next_step) or "",
                            cards, topics))
    return out


def suggest_drill(drills: list, col: Collection, lang: str = "en") -> DrillSuggestion | None:
    """Failed last time, else never attempted, else slowest against its time limit.

    `drills` are catalogue entries (studio.drills.catalog.DrillSpec or anything with id,
    title_for(lang), time_limit_min and error); broken ones are never suggested."""
    usable = [d for d in drills if not getattr(d, "error", None)]
    if not usable:
        return None
    by_id = {d.id: d for d in usable}
    with col.db.session() as s:
        rows = s.execute(select(DrillAttempt.drill_id, DrillAttempt.passed, DrillAttempt.time_to_pass_s)
                         .where(DrillAttempt.drill_id.in_(list(by_id)))
                         .order_by(DrillAttempt.started_at.desc(), DrillAttempt.id.desc())).all()
    last: dict[str, bool] = {}
    fastest: dict[str, float] = {}
    for drill_id, passed, seconds in rows:
        last.setdefault(drill_id, bool(passed))
        if passed and seconds is not None:
            fastest[drill_id] = min(seconds, fastest.get(drill_id, seconds))

    def make(drill, reason: str) -> DrillSuggestion:
        return DrillSuggestion(drill.id, drill.title_for(lang), reason, int(drill.time_limit_min or 0),
                               fastest.get(drill.id))

    for drill_id, passed in last.items():  # newest attempt first
        if not passed:
            return make(by_id[drill_id], "failed")
    for drill in usable:
        if drill.id not in last:
            return make(drill, "new")
    slow = [(fastest[d.id] / (d.time_limit_min * 60), d) for d in usable
            if d.id in fastest and d.time_limit_min]
    if slow:
        return make(max(slow, key=lambda pair: pair[0])[1], "slow")
    return make(usable[0], "slow")


def in_progress(col: Collection, lang: str = "en", limit: int = 8) -> list[tuple[str, str]]:
    with col.db.session() as s:
        ids = list(s.scalars(select(NodeProgress.node_id).where(NodeProgress.state == "learning")
                             .order_by(NodeProgress.updated_at.desc()).limit(limit)))
    if not ids:
        return []  # the roadmap (a second to parse) is read only when there is something to name
    roadmap = col.roadmap
    out = []
    for node_id in ids:
        node = roadmap.nodes.get(node_id) if roadmap is not None else None
        out.append((node_id, node.title(lang) if node is not None else node_id))
    return out


def recent_attempts(col: Collection, limit: int = 5) -> list[dict]:
    with col.db.session() as s:
        rows = s.execute(select(DrillAttempt.id, DrillAttempt.drill_id, DrillAttempt.started_at, DrillAttempt.passed,
                                DrillAttempt.best_gbps, DrillAttempt.mode)
                         .order_by(DrillAttempt.started_at.desc(), DrillAttempt.id.desc()).limit(limit)).all()
    return [{"id": i, "drill_id": d, "when": w, "passed": bool(p), "best": b, "mode": m} for i, d, w, p, b, m in rows]


def recent_benches(col: Collection, limit: int = 3) -> list[dict]:
    with col.db.session() as s:
        rows = s.execute(select(BenchRun.id, BenchRun.kernel_path, BenchRun.func, BenchRun.started_at, BenchRun.status)
                         .order_by(BenchRun.started_at.desc(), BenchRun.id.desc()).limit(limit)).all()
    return [{"id": i, "kernel": k, "func": f, "when": w, "status": st} for i, k, f, w, st in rows]


def today_view(col: Collection, drills: list | None = None, lang: str = "en", now: datetime | None = None,
               tz: tzinfo | None = None) -> Today:
    """Everything the Today pane shows. `drills` is the catalogue (loaded by the caller)."""
    from studio.core.stats import reviews_per_day, streak

    now = now or utcnow()
    today = now.replace(tzinfo=timezone.utc).astimezone(tz).date()
    with col.db.session() as s:
        reviews_total = int(s.scalar(select(func.count(ReviewLog.id))) or 0)
    return Today(
        due=due_now(col, now),
        streak=streak(col, tz, today),
        heatmap=reviews_per_day(col, HEATMAP_DAYS, tz, today),
        upcoming=upcoming_interviews(col, now),
        drill=suggest_drill(drills or [], col, lang),
        in_progress=in_progress(col, lang),
        attempts=recent_attempts(col),
        benches=recent_benches(col),
        reviews_total=reviews_total,
    )


def prepare_scope(item: Upcoming) -> QueueScope:
    """The review session that prepares for an upcoming interview: its cards, studied ahead."""
    return QueueScope(card_ids=list(item.prep_card_ids), ahead=True)

