"""Importing a folder of Markdown notes: the notes, the cards in them, the interview tables.

Two steps, so the GUI can show a preview with tick boxes: `plan_import` reads the files
and lists what it found (and every problem with file and line) without writing;
`apply_import` writes the chosen parts. Cards and interviews carry stable keys derived
from their source, so importing the same files again updates text in place: no
duplicates, and scheduling is kept.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from zoneinfo import ZoneInfo

from sqlalchemy import select

from studio import paths
from studio.core.collection import Collection, utcnow
from studio.core.frontmatter import split_front_matter
from studio.core.importers.interview_tables import TableRow, find_interview_rows
from studio.core.importers.markdown_qa import ExtractedCard, extract_cards
from studio.core.importers.text_files import UnreadableFile, read_text
from studio.core.models import Card, Interview, InterviewQuestion, Note

_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass
class PlannedCard:
    key: str
    card: ExtractedCard
    path: Path
    selected: bool = True


@dataclass
class PlannedInterview:
    key: str
    row: TableRow
    path: Path
    selected: bool = True


@dataclass
class ImportPlan:
    files: list[Path] = field(default_factory=list)
    texts: dict[Path, str] = field(default_factory=dict)
    cards: list[PlannedCard] = field(default_factory=list)
    interviews: list[PlannedInterview] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class ImportSummary:
    notes: int = 0
    cards: int = 0
    cards_updated: int = 0
    interviews: int = 0
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"notes": self.notes, "cards": self.cards, "cards_updated": self.cards_updated,
                "interviews": self.interviews, "problems": list(self.problems)}


def collect_files(inputs: list[Path]) -> tuple[list[Path], list[str]]:
    files, problems = [], []
    for item in inputs:
        if item.is_dir():
            files.extend(sorted(p for p in item.rglob("*") if p.suffix.lower() in (".md", ".markdown")
                                and p.is_file() and not any(part.startswith(".") for part in p.parts)))
        elif item.is_file():
            files.append(item)
        else:
            problems.append(f"{item}: no such file or folder")
    return files, problems


def plan_import(inputs: list[Path], progress: Callable[[int, int], None] | None = None) -> ImportPlan:
    files, problems = collect_files([Path(p) for p in inputs])
    plan = ImportPlan(problems=problems)
    for n, path in enumerate(files, start=1):
        if progress:
            progress(n, len(files))
        try:
            text, _encoding = read_text(path)
        except UnreadableFile as exc:
            plan.problems.append(f"{path}: skipped: {exc}")
            continue
        except OSError as exc:
            plan.problems.append(f"{path}: cannot read: {exc}")
            continue
        front, body = split_front_matter(text)
        if front.error:
            plan.problems.append(f"{path}:1: {front.error}; the note is imported without its front matter")
        offset = text[: len(text) - len(body)].count("\n")
        plan.files.append(path)
        plan.texts[path] = text
        source = str(path.resolve())
        for card in extract_cards(body):
            card.line += offset
            plan.cards.append(PlannedCard(card.stable_key(source), card, path))
        rows, table_problems = find_interview_rows(body)
        for row in rows:
            row.line += offset
            key = "import:" + hashlib.sha1(f"{source}\n{row.when_text.strip()}\n{row.company}".encode()).hexdigest()[:16]
            plan.interviews.append(PlannedInterview(key, row, path))
        plan.problems.extend(f"{path}:{p.line + offset}: {p.message}" for p in table_problems)
    return plan


def _card_fields(card: ExtractedCard) -> dict:
    if _CJK.search(card.question):
        return {"q_zh": card.question, "a_zh": card.answer, "q_en": "", "a_en": ""}
    return {"q_en": card.question, "a_en": card.answer, "q_zh": "", "a_zh": ""}


def apply_import(col: Collection, plan: ImportPlan, copy: bool = False, year: int | None = None,
                 tz: str = "Asia/Shanghai", progress: Callable[[int, int], None] | None = None) -> ImportSummary:
    """Write the plan's selected notes, cards and interviews; return the summary."""
    from studio.core.interviews import DateNeedsYear, parse_when

    summary = ImportSummary(problems=list(plan.problems))
    now = utcnow()
    copies = paths.data_dir() / "imported-notes"
    zone = ZoneInfo(tz)
    with col.db.session() as s, s.begin():
        for n, path in enumerate(plan.files, start=1):
            if progress:
                progress(n, len(plan.files))
            target = path.resolve()
            if copy:
                copies.mkdir(parents=True, exist_ok=True)
                digest = hashlib.sha1(str(target).encode()).hexdigest()[:8]
                dest = copies / f"{path.stem}-{digest}{path.suffix}"
                shutil.copy2(path, dest)
                target = dest
            text = plan.texts[path]
            front, body = split_front_matter(text)
            note = s.scalars(select(Note).where(Note.path == str(target))).first()
            if note is None:
                note = Note(path=str(target), source="imported")
                s.add(note)
            note.title = front.title or path.stem
            note.tags = " ".join(front.tags + front.categories)
            note.body = body
            note.lang = "zh" if _CJK.search(body[:2000]) else "en"
            st = target.stat()
            note.mtime, note.size = st.st_mtime, st.st_size
            summary.notes += 1
        for planned in plan.cards:
            if not planned.selected:
                continue
            fields = _card_fields(planned.card)
            origin = json.dumps({"file": str(planned.path.resolve()), "line": planned.card.line,
                                 "shape": planned.card.shape}, ensure_ascii=False)
            card = s.scalars(select(Card).where(Card.key == planned.key)).first()
            if card is None:
                s.add(Card(key=planned.key, source="imported", kind="qa", tags="imported", origin=origin,
                           created_at=now, modified_at=now, due=now, **fields))
                summary.cards += 1
            elif any(getattr(card, k) != v for k, v in fields.items()) or card.origin != origin:
                for k, v in fields.items():
                    setattr(card, k, v)
                card.origin, card.modified_at = origin, now
                summary.cards_updated += 1
        for planned in plan.interviews:
            if not planned.selected:
                continue
            row = planned.row
            try:
                when = parse_when(row.when_text, zone, year)
            except DateNeedsYear:
                summary.problems.append(f"{planned.path}:{row.line}: '{row.when_text.strip()}' has no year; "
                                        "import again with the year (--year YYYY); row skipped")
                continue
            except ValueError as exc:
                summary.problems.append(f"{planned.path}:{row.line}: {exc}; row skipped")
                continue
            existing = s.scalars(select(Interview).where(Interview.source == planned.key)).first()
            interview = existing or Interview(source=planned.key, created_at=now, company=row.company)
            interview.starts_at = when.astimezone(ZoneInfo("UTC")).replace(tzinfo=None)
            interview.tz = tz
            interview.company = row.company
            interview.round = row.fields.get("round", "")
            interview.role = row.fields.get("role", "")
            interview.felt = row.fields.get("felt", "")
            interview.result = row.result
            interview.notes_md = row.fields.get("notes", "")
            interview.modified_at = now
            asked = [q.strip() for q in re.split(r"(?<!\+)[+＋](?!\+)|[;；]", row.fields.get("questions", "")) if q.strip()]
            interview.questions = [InterviewQuestion(ord=i, text=q) for i, q in enumerate(asked)]
            if existing is None:
                s.add(interview)
                summary.interviews += 1
    return summary


def import_notes(col: Collection, inputs: list[Path], copy: bool = False, year: int | None = None) -> ImportSummary:
    return apply_import(col, plan_import(inputs), copy=copy, year=year)


__all__ = ["ImportPlan", "ImportSummary", "plan_import", "apply_import", "import_notes"]
