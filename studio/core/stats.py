"""Review statistics: calendar, daily counts, forecast, true retention, buttons, mastery, streak.

Days are the user's local calendar days (`tz`, default the system zone). Undone
answers are excluded everywhere. Definitions follow Anki's where Anki has one:
true retention counts only the first review of a card on a day, of cards already in
review, and splits them into young (interval under 21 days) and mature.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone, tzinfo

from sqlalchemy import select, text

from studio.core.cards import retrievability_sql
from studio.core.collection import Collection, utcnow
from studio.core.models import Card, ReviewLog, ReviewUndo

MATURE_DAYS = 21


def _local_day(dt: datetime, tz: tzinfo | None) -> date:
    return dt.replace(tzinfo=timezone.utc).astimezone(tz).date()


def _reviews(col: Collection, since: datetime | None = None):
    with col.db.session() as s:
        q = select(ReviewLog.card_id, ReviewLog.reviewed_at, ReviewLog.rating, ReviewLog.state_before,
                   ReviewLog.was_new, ReviewLog.elapsed_days, ReviewLog.duration_ms) \
            .where(ReviewLog.id.not_in(select(ReviewUndo.review_id))).order_by(ReviewLog.reviewed_at)
        if since is not None:
            q = q.where(ReviewLog.reviewed_at >= since)
        return s.execute(q).all()


def reviews_per_day(col: Collection, days: int = 365, tz: tzinfo | None = None,
                    today: date | None = None) -> dict[date, int]:
    """Reviews on each of the last `days` local days (the calendar heatmap and bar chart)."""
    today = today or datetime.now(tz).date()
    start = today - timedelta(days=days - 1)
    since = datetime.combine(start - timedelta(days=2), datetime.min.time())
    counts = Counter(_local_day(r.reviewed_at, tz) for r in _reviews(col, since))
    return {start + timedelta(days=i): counts.get(start + timedelta(days=i), 0) for i in range(days)}


def due_forecast(col: Collection, days: int = 30, tz: tzinfo | None = None,
                 today: date | None = None) -> dict[date, int]:
    """Cards (already studied, active) falling due on each of the next `days` days; overdue counts today."""
    today = today or datetime.now(tz).date()
    out = {today + timedelta(days=i): 0 for i in range(days)}
    with col.db.session() as s:
        dues = s.scalars(select(Card.due).where(Card.retired.is_(False), Card.suspended.is_(False),
                                                Card.last_review.is_not(None)))
        for due in dues:
            day = max(_local_day(due, tz), today)
            if day in out:
                out[day] += 1
    return out


@dataclass
class Retention:
    young_passed: int = 0
    young_total: int = 0
    mature_passed: int = 0
    mature_total: int = 0

    @property
    def young(self) -> float | None:
        return self.young_passed / self.young_total if self.young_total else None

    @property
    def mature(self) -> float | None:
        return self.mature_passed / self.mature_total if self.mature_total else None

    @property
    def overall(self) -> float | None:
        total = self.young_total + self.mature_total
        return (self.young_passed + self.mature_passed) / total if total else None


def true_retention(col: Collection, days: int = 30, tz: tzinfo | None = None,
                   now: datetime | None = None) -> Retention:
    """Pass rate (any grade but Again) of the first review per card per day, of review-state cards."""
    ret = Retention()
    seen: set[tuple[int, date]] = set()
    for r in _reviews(col, (now or utcnow()) - timedelta(days=days)):
        key = (r.card_id, _local_day(r.reviewed_at, tz))
        if key in seen:
            continue
        seen.add(key)
        before = json.loads(r.state_before)
        if r.was_new or before["fsrs_state"] != 2 or not before["last_review"]:
            continue
        last = datetime.fromisoformat(before["last_review"])
        interval = (datetime.fromisoformat(before["due"]) - last).days
        passed = int(r.rating > 1)
        if interval >= MATURE_DAYS:
            ret.mature_total += 1
            ret.mature_passed += passed
        else:
            ret.young_total += 1
            ret.young_passed += passed
    return ret


def answer_buttons(col: Collection, days: int = 30, now: datetime | None = None) -> dict[str, dict[int, int]]:
    """How often each grade (1-4) was pressed, for new/learning cards and for reviews."""
    out = {"learning": {k: 0 for k in range(1, 5)}, "review": {k: 0 for k in range(1, 5)}}
    for r in _reviews(col, (now or utcnow()) - timedelta(days=days)):
        kind = "review" if not r.was_new and json.loads(r.state_before)["fsrs_state"] == 2 else "learning"
        out[kind][r.rating] += 1
    return out


def mastery_by_area(col: Collection, threshold: float = 0.9, now: datetime | None = None) -> dict[str, tuple[int, int]]:
    """Per top-level roadmap area: (cards with retrievability above threshold, cards in area)."""
    roadmap = col.roadmap
    if roadmap is None:
        return {}
    area_of = {node.id: area.id for area in roadmap.areas for node in area.walk()}
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    sql = (f"SELECT c.node_id, {retrievability_sql()} FROM cards c "
           f"WHERE c.retired = 0 AND c.suspended = 0")
    with col.db.engine.connect() as conn:
        for node_id, r in conn.execute(text(sql), {"now": now or utcnow()}):
            area = area_of.get(node_id or "")
            if area is None:
                continue
            totals[area][1] += 1
            if r is not None and r > threshold:
                totals[area][0] += 1
    return {area.id: tuple(totals[area.id]) for area in roadmap.areas}


def streak(col: Collection, tz: tzinfo | None = None, today: date | None = None) -> int:
    """Consecutive days with at least one review, ending today (or yesterday if none yet today)."""
    today = today or datetime.now(tz).date()
    since = datetime.combine(today - timedelta(days=3650), datetime.min.time())
    with col.db.session() as s:
        stamps = s.scalars(select(ReviewLog.reviewed_at).where(
            ReviewLog.reviewed_at >= since, ReviewLog.id.not_in(select(ReviewUndo.review_id))))
        days = {_local_day(t, tz) for t in stamps}
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


@dataclass
class Overview:
    """Everything the Stats pane draws, computed in one call on the database worker."""

    counts: dict[str, int]
    per_day: dict[date, int]
    forecast: dict[date, int]
    retention: Retention
    buttons: dict[str, dict[int, int]]
    mastery: dict[str, tuple[int, int]]
    streak: int


def overview(col: Collection, tz: tzinfo | None = None, today: date | None = None,
             now: datetime | None = None) -> Overview:
    return Overview(
        counts=col.counts(),
        per_day=reviews_per_day(col, 365, tz, today),
        forecast=due_forecast(col, 30, tz, today),
        retention=true_retention(col, 30, tz, now),
        buttons=answer_buttons(col, 30, now),
        mastery=mastery_by_area(col, now=now),
        streak=streak(col, tz, today),
    )
