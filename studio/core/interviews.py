"""The interview log: recording interviews with validation, listing and soft deletion."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from studio.core.collection import Collection, utcnow
from studio.core.models import Interview, InterviewQuestion

RESULTS = ("scheduled", "waiting", "passed", "rejected", "offer", "withdrawn", "no_response")
FORMATS = ("phone", "video", "onsite", "written")


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
