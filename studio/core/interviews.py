"""The interview log: record, validate, list, chart, export, and turn questions into cards.

Times are stored in UTC with the interview's time zone name beside them. Dates typed
the way people type them ("5/19 20：00", "5月19日 20点") are parsed, asking for the year
when it is missing. Deleting is a soft delete so it can be undone.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from studio.core.collection import Collection, utcnow
from studio.core.models import IntroDraft, Interview, InterviewQuestion

RESULTS = ("scheduled", "waiting", "passed", "rejected", "offer", "withdrawn", "no_response")
FORMATS = ("phone", "video", "onsite", "written")
MAX_NOTES_CHARS = 1_000_000


class InterviewInvalid(ValueError):
    """The form has problems; `errors` maps field name to a message."""

    def __init__(self, errors: dict[str, str]):
        self.errors = errors
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))


@dataclass
class QuestionDraft:
    text: str
    node_id: str | None = None
    rating: int | None = None
    is_coding: bool = False
    drill_id: str | None = None


@dataclass
class InterviewDraft:
    starts_at: datetime | None  # time-zone aware
    company: str
    round: str = ""
    team: str = ""
    role: str = ""
    format: str = ""
    duration_min: int | None = None
    referral: str = ""
    felt: str = ""
    result: str = "scheduled"
    next_step: str = ""
    next_step_at: datetime | None = None
    notes_md: str = ""
    questions: list[QuestionDraft] = field(default_factory=list)


def validate(draft: InterviewDraft) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not draft.company.strip():
        errors["company"] = "Company is required."
    if draft.starts_at is None:
        errors["starts_at"] = "Date and time are required."
    elif draft.starts_at.tzinfo is None:
        errors["starts_at"] = "Date and time need a time zone."
    if draft.result not in RESULTS:
        errors["result"] = f"Unknown result '{draft.result}'; expected one of {', '.join(RESULTS)}."
    if draft.format and draft.format not in FORMATS:
        errors["format"] = f"Unknown format '{draft.format}'; expected one of {', '.join(FORMATS)}."
    if draft.duration_min is not None and not 0 < draft.duration_min <= 24 * 60:
        errors["duration_min"] = "Duration must be between 1 and 1440 minutes."
    if draft.next_step_at is not None and draft.starts_at is not None and draft.next_step_at.tzinfo is not None \
            and draft.next_step_at < draft.starts_at:
        errors["next_step_at"] = "The next step cannot be before the interview."
    if len(draft.notes_md) > MAX_NOTES_CHARS:
        errors["notes_md"] = (f"Notes are {len(draft.notes_md):,} characters; the limit is {MAX_NOTES_CHARS:,}. "
                              "Nothing was saved; shorten them or keep the long part in a notes file.")
    for n, q in enumerate(draft.questions, start=1):
        if q.rating is not None and not 1 <= q.rating <= 5:
            errors[f"question_{n}"] = "A question's rating must be 1 to 5."
    return errors


def _utc(dt: datetime | None) -> datetime | None:
    return None if dt is None else dt.astimezone(timezone.utc).replace(tzinfo=None)


def save_interview(col: Collection, draft: InterviewDraft, interview_id: int | None = None) -> int:
    """Insert or update an interview in one transaction; nothing is saved if invalid."""
    errors = validate(draft)
    if errors:
        raise InterviewInvalid(errors)
    now = utcnow()
    with col.db.session() as s, s.begin():
        row = s.get(Interview, interview_id) if interview_id else None
        if row is None:
            row = Interview(created_at=now, company=draft.company)
            s.add(row)
        tz = draft.starts_at.tzinfo
        row.starts_at = _utc(draft.starts_at)
        row.tz = getattr(tz, "key", None) or draft.starts_at.strftime("%z") or "UTC"
        for name in ("company", "team", "role", "round", "format", "referral", "felt", "result",
                     "next_step", "notes_md"):
            setattr(row, name, getattr(draft, name).strip() if isinstance(getattr(draft, name), str) else getattr(draft, name))
        row.duration_min = draft.duration_min
        row.next_step_at = _utc(draft.next_step_at)
        row.modified_at = now
        row.questions = [
            InterviewQuestion(ord=n, text=q.text.strip(), node_id=q.node_id, rating=q.rating,
                              is_coding=q.is_coding, drill_id=q.drill_id)
            for n, q in enumerate(draft.questions) if q.text.strip()
        ]
        s.flush()
        return row.id


def list_interviews(col: Collection, include_deleted: bool = False) -> list[Interview]:
    with col.db.session() as s:
        q = select(Interview).options(selectinload(Interview.questions)).order_by(Interview.starts_at.desc())
        if not include_deleted:
            q = q.where(Interview.deleted_at.is_(None))
        return list(s.scalars(q))


def delete_interview(col: Collection, interview_id: int) -> None:
    """Soft delete, so it can be undone."""
    with col.db.session() as s, s.begin():
        s.get(Interview, interview_id).deleted_at = utcnow()


def restore_interview(col: Collection, interview_id: int) -> None:
    with col.db.session() as s, s.begin():
        s.get(Interview, interview_id).deleted_at = None


# ----- parsing dates as people type them ------------------------------------------------

_DATE_RE = re.compile(
    r"^\s*(?:(?P<y>\d{4})\s*[-/.年]\s*)?(?P<m>\d{1,2})\s*[-/.月]\s*(?P<d>\d{1,2})\s*[日号]?"
    r"(?:\s*(?:T|\s)?\s*(?P<H>\d{1,2})\s*[:：时点]\s*(?P<M>\d{1,2})?\s*分?)?\s*$"
)


class DateNeedsYear(ValueError):
    """The text has no year; ask the user which year and call parse_when again with it."""


def parse_when(text: str, tz: tzinfo, year: int | None = None) -> datetime:
    """Parse '2025-05-19 20:00', '5/19 20：00', '5月19日 20点' into an aware datetime.

    Full-width colons and Chinese date words are accepted. Text without a year raises
    DateNeedsYear unless `year` is given.
    """
    normal = unicodedata.normalize("NFKC", text or "").strip()
    m = _DATE_RE.match(normal)
    if not m:
        raise ValueError(f"cannot read the date {text!r} (expected e.g. 2025-05-19 20:00 or 5/19 20:00)")
    y = int(m.group("y")) if m.group("y") else year
    if y is None:
        raise DateNeedsYear(f"{text!r} has no year")
    hour = int(m.group("H")) if m.group("H") else 0
    minute = int(m.group("M")) if m.group("M") else 0
    try:
        return datetime(y, int(m.group("m")), int(m.group("d")), hour, minute, tzinfo=tz)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a real date and time ({exc})") from exc


# ----- views: upcoming, filters, charts ------------------------------------------------

def upcoming(col: Collection, days: int = 7, now: datetime | None = None) -> list[tuple[datetime, str, Interview]]:
    """Interviews and follow-ups in the next `days` days: (when UTC, 'interview'|'next_step', row)."""
    now = now or utcnow()
    end = now + timedelta(days=days)
    out = []
    for iv in list_interviews(col):
        if now <= iv.starts_at <= end:
            out.append((iv.starts_at, "interview", iv))
        if iv.next_step_at is not None and now <= iv.next_step_at <= end:
            out.append((iv.next_step_at, "next_step", iv))
    return sorted(out, key=lambda row: row[0])


def filter_interviews(rows: list[Interview], status: str | None = None, company: str | None = None,
                      start: datetime | None = None, end: datetime | None = None, text: str = "") -> list[Interview]:
    needle = text.strip().lower()

    def keep(iv: Interview) -> bool:
        if status and iv.result != status:
            return False
        if company and company.lower() not in iv.company.lower():
            return False
        if start and iv.starts_at < start:
            return False
        if end and iv.starts_at > end:
            return False
        if needle:
            hay = " ".join([iv.company, iv.team, iv.role, iv.round, iv.felt, iv.notes_md, iv.next_step]
                           + [q.text for q in iv.questions]).lower()
            return needle in hay
        return True

    return [iv for iv in rows if keep(iv)]


def interviews_per_week(rows: list[Interview]) -> dict[date, int]:
    """Monday of each ISO week -> interviews that week (weeks without any included)."""
    if not rows:
        return {}
    mondays = [iv.starts_at.date() - timedelta(days=iv.starts_at.weekday()) for iv in rows]
    counts = Counter(mondays)
    first, last = min(mondays), max(mondays)
    out, week = {}, first
    while week <= last:
        out[week] = counts.get(week, 0)
        week += timedelta(days=7)
    return out


def funnel(rows: list[Interview]) -> dict[str, int]:
    counts = Counter(iv.result for iv in rows)
    return {result: counts.get(result, 0) for result in RESULTS}


def topics_asked(rows: list[Interview]) -> list[tuple[str, int, float | None]]:
    """(roadmap node, times asked, average self-rating) most asked first."""
    asked: dict[str, list[int | None]] = {}
    for iv in rows:
        for q in iv.questions:
            if q.node_id:
                asked.setdefault(q.node_id, []).append(q.rating)
    out = []
    for node, ratings in asked.items():
        rated = [r for r in ratings if r is not None]
        out.append((node, len(ratings), round(sum(rated) / len(rated), 2) if rated else None))
    return sorted(out, key=lambda row: (-row[1], row[0]))


# ----- turning questions into practice ---------------------------------------------------

def card_from_question(col: Collection, question_id: int) -> int:
    """Create a card from an interview question, linked both ways; returns the card id."""
    from studio.core.cards import CardDraft, create_card

    with col.db.session() as s:
        q = s.get(InterviewQuestion, question_id)
        if q is None:
            raise LookupError(f"question {question_id} does not exist")
        if q.card_id is not None:
            return q.card_id
        iv = q.interview
        when = iv.starts_at.strftime("%Y-%m-%d")
        origin = json.dumps({"interview_id": iv.id, "question_id": q.id, "company": iv.company,
                             "round": iv.round, "date": when}, ensure_ascii=False)
        is_zh = bool(re.search(r"[\u4e00-\u9fff]", q.text))
        answer = f"(Write your answer.) Asked at {iv.company} {iv.round} on {when}."
        answer_zh = f"（写下你的答案。）{when} 在 {iv.company} {iv.round} 被问到。"
        draft = CardDraft(q_en="" if is_zh else q.text, a_en="" if is_zh else answer,
                          q_zh=q.text if is_zh else "", a_zh=answer_zh if is_zh else "",
                          node_id=q.node_id, tags=["interview", re.sub(r"\W+", "-", iv.company.lower()).strip("-")])
    card_id = create_card(col, draft, source="interview", origin=origin)[0]
    with col.db.session() as s, s.begin():
        s.get(InterviewQuestion, question_id).card_id = card_id
    return card_id


def asked_in(col: Collection, card_id: int) -> list[dict]:
    """Where and when a card's question was asked (the back-link shown on the card)."""
    with col.db.session() as s:
        rows = s.execute(select(InterviewQuestion, Interview).join(Interview)
                         .where(InterviewQuestion.card_id == card_id, Interview.deleted_at.is_(None))).all()
        return [{"interview_id": iv.id, "company": iv.company, "round": iv.round,
                 "date": iv.starts_at.strftime("%Y-%m-%d")} for _q, iv in rows]


# ----- export ------------------------------------------------------------------------------

EXPORT_COLUMNS = ("date", "company", "team", "role", "round", "format", "result", "next_step", "questions")


def _export_rows(rows: list[Interview]) -> list[list[str]]:
    out = []
    for iv in rows:
        local = local_time(iv.starts_at, iv.tz)
        out.append([local.strftime("%Y-%m-%d %H:%M"), iv.company, iv.team, iv.role, iv.round, iv.format,
                    iv.result, iv.next_step, "; ".join(q.text for q in iv.questions)])
    return out


def export_csv(rows: list[Interview]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(EXPORT_COLUMNS)
    writer.writerows(_export_rows(rows))
    return buf.getvalue()


def export_markdown(rows: list[Interview]) -> str:
    def cell(value: str) -> str:
        return value.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(EXPORT_COLUMNS) + " |", "|" + "---|" * len(EXPORT_COLUMNS)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in _export_rows(rows)]
    return "\n".join(lines) + "\n"


def local_time(utc: datetime, zone_name: str) -> datetime:
    """A stored (naive UTC) time in the interview's own time zone."""
    return utc.replace(tzinfo=timezone.utc).astimezone(zone_of(zone_name))


def zone_of(name: str) -> tzinfo:
    """The zone named in the log (an IANA name or an offset like +0800), UTC if unknown."""
    try:
        return ZoneInfo(name)
    except Exception:
        m = re.match(r"^([+-])(\d{2})(\d{2})$", name or "")
        if m:
            sign = 1 if m.group(1) == "+" else -1
            return timezone(sign * timedelta(hours=int(m.group(2)), minutes=int(m.group(3))))
        return timezone.utc


# ----- self-introduction drafts ---------------------------------------------------------------

def list_intros(col: Collection) -> list[IntroDraft]:
    with col.db.session() as s:
        return list(s.scalars(select(IntroDraft).order_by(IntroDraft.lang, IntroDraft.modified_at.desc())))


def save_intro(col: Collection, lang: str, title: str, body: str, intro_id: int | None = None) -> int:
    if lang not in ("en", "zh"):
        raise ValueError("An introduction is in English ('en') or Chinese ('zh').")
    with col.db.session() as s, s.begin():
        row = s.get(IntroDraft, intro_id) if intro_id else None
        if row is None:
            row = IntroDraft(lang=lang)
            s.add(row)
        row.lang, row.title, row.body, row.modified_at = lang, title.strip(), body, utcnow()
        s.flush()
        return row.id


def speaking_seconds(body: str, lang: str) -> int:
    """Rough speaking time: about 150 English words or 250 Chinese characters a minute."""
    if lang == "zh":
        return round(len(re.findall(r"[\u4e00-\u9fff]", body)) / 250 * 60)
    return round(len(re.findall(r"[A-Za-z']+", body)) / 150 * 60)
