"""Importing a folder of Markdown notes: the notes, the cards in them, the interview tables.

Two steps, so the GUI can show a preview with tick boxes: `plan_import` reads the files
and lists what it found (and every problem with file and line) without writing;
`apply_import` writes the chosen parts. Cards and interviews carry stable keys derived
from their source, so importing the same files again updates text in place: no
duplicates, and scheduling is kept.

Nothing is decided silently, and the summary says what was assumed:
- a file that is not UTF-8 is read in the encoding detected (named in the summary); when
  the detection is unsure the file is refused with the candidates, unless the caller gave
  an encoding for such files (`encoding`, the CLI's --encoding) or asked for the best guess
  to be shown (`guess`, the preview, which lets the user change it per file: `encodings`);
- interview dates without a year are placed near the note's front matter date, else its
  file time, else today (interview_tables.place_year), one assumption per file;
- the same question twice (in one file, in two files, or already in the collection under
  another key) is a duplicate, listed, and handled by one policy: keep_both (default,
  nothing lost), keep_newest (the later card in the import, or the imported text over the
  collection's, whose scheduling is kept), skip (what is in the collection, else the first
  one, stays; the others are not imported). Cards that all have their card from an earlier
  import are a re-import, not a duplicate, and a decision sticks: a card it left out is
  asked about again only when its text changes (details above `find_duplicates`);
- reading one file may take at most `file_budget_s` (checked between parsing stages); a
  slower file is reported and skipped rather than holding up the import.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import time
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from pathlib import Path
from typing import Callable
from zoneinfo import ZoneInfo

from sqlalchemy import or_, select

from studio import paths
from studio.core.collection import Collection, utcnow
from studio.core.frontmatter import split_front_matter
from studio.core.importers.card_duplicates import ExistingCard, card_origin, same_question
from studio.core.importers.card_duplicates import digest as text_digest
from studio.core.importers.interview_tables import (
    WINDOWS,
    TableRow,
    YearBasis,
    find_interview_rows,
    place_year,
    year_basis,
)
from studio.core.importers.markdown_qa import ExtractedCard, extract_cards
from studio.core.importers.text_files import (EncodingUnclear, FileEncoding, UnreadableFile, read_for_import,
                                              refusal)
from studio.core.models import Card, Interview, InterviewQuestion, Note

_CJK = re.compile(r"[\u4e00-\u9fff]")
DUPLICATE_POLICIES = ("keep_both", "keep_newest", "skip")
FILE_BUDGET_S = 10.0
DROP = "drop"  # a planned card a duplicate decision leaves out


@dataclass
class PlannedCard:
    key: str
    card: ExtractedCard
    path: Path
    selected: bool = True

    @property
    def where(self) -> str:
        return f"{self.path}:{self.card.line}"


@dataclass
class PlannedInterview:
    key: str
    row: TableRow
    path: Path
    selected: bool = True
    year: int | None = None  # the year assumed for a date written without one


@dataclass
class YearAssumption:
    """Which year one file's yearless interview dates were given, and why."""

    path: Path
    basis: YearBasis | None  # None: one year given by the user
    rows: int
    years: list[int]

    def describe(self) -> str:
        years = "-".join(str(y) for y in sorted({min(self.years), max(self.years)}))
        head = f"{self.path}: {self.rows} interview date(s) without a year read as {years}"
        basis = self.basis
        if basis is None:
            return f"{head}, the year given"
        if basis.kind == "today":
            why = f"their most recent past occurrence, today ({basis.reference}) included"
            if basis.rejected_file_time is not None:
                why += f"; the file's time ({basis.rejected_file_time}) is not believable"
            return f"{head}: {why}"
        what = {"front_matter": "the front matter date", "updated": "the front matter 'updated' date",
                "file_time": "the file's modification time"}[basis.kind]
        before, after = WINDOWS[basis.kind]
        return f"{head}, near {what} {basis.reference} ({-before} months before to {after} months after it)"

    def to_json(self) -> dict:
        basis = self.basis
        return {"file": str(self.path), "rows": self.rows, "years": sorted(set(self.years)),
                "basis": basis.kind if basis else "year_given",
                "reference": basis.reference.isoformat() if basis else None, "text": self.describe()}


@dataclass
class Duplicate:
    """One question that occurs more than once: in this import and/or in the collection."""

    question: str
    cards: list[PlannedCard]  # this import's cards with the question, oldest first
    existing: ExistingCard | None = None
    imported: list[PlannedCard] = field(default_factory=list)  # those already in from an earlier import
    reopened: list[PlannedCard] = field(default_factory=list)  # left out by an earlier decision, decided again

    def outcome(self, policy: str) -> str:
        if policy == "keep_both":
            return "kept both" if len(self.cards) + bool(self.existing) == 2 else "kept all"
        if policy == "skip":
            if self.imported:
                return f"kept {self.imported[0].where} (imported before), skipped the rest"
            if self.existing:
                return "skipped; the collection's card stays"
            return f"kept {self.cards[0].where}, skipped the rest"
        newest = self.cards[-1]
        if any(c is newest for c in self.imported):
            return f"kept the newest, {newest.where}"
        if self.imported:
            return (f"{newest.where} replaced the text of {self.imported[-1].where}'s card "
                    "(its scheduling kept)")
        if self.existing:
            return f"{newest.where} replaced the text of card #{self.existing.id} (its scheduling kept)"
        return f"kept the newest, {newest.where}"

    def to_json(self, policy: str) -> dict:
        return {"question": self.question, "where": [c.where for c in self.cards],
                "existing": {"id": self.existing.id, "key": self.existing.key} if self.existing else None,
                "action": policy, "outcome": self.outcome(policy)}

    def describe(self, policy: str) -> str:
        where = ", ".join(c.where for c in self.cards)
        if self.existing:
            where += f" and card #{self.existing.id} in the collection"
        again = (f" (an earlier import left out {', '.join(c.where for c in self.reopened)}; decided again)"
                 if self.reopened else "")
        return f"{self.question[:80]!r} at {where}: {self.outcome(policy)}{again}"


@dataclass
class ImportPlan:
    files: list[Path] = field(default_factory=list)
    texts: dict[Path, str] = field(default_factory=dict)
    cards: list[PlannedCard] = field(default_factory=list)
    interviews: list[PlannedInterview] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    encodings: dict[Path, FileEncoding] = field(default_factory=dict)  # files not read as UTF-8
    unclear: dict[Path, list[str]] = field(default_factory=dict)  # refused: encoding candidates
    assumptions: list[YearAssumption] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)  # filled when planned with a collection
    # What each policy would decide (an earlier decision reopened by one policy only): the
    # preview shows the chosen policy's list; `duplicates` is keep_both's.
    duplicates_by_policy: dict[str, list[Duplicate]] = field(default_factory=dict)
    mtimes: dict[Path, float] = field(default_factory=dict)


@dataclass
class ImportSummary:
    notes: int = 0
    cards: int = 0
    cards_updated: int = 0
    interviews: int = 0
    problems: list[str] = field(default_factory=list)
    encodings: dict[str, FileEncoding] = field(default_factory=dict)  # files not read as UTF-8
    assumptions: list[YearAssumption] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    duplicate_policy: str = "keep_both"

    def to_json(self) -> dict:
        return {"notes": self.notes, "cards": self.cards, "cards_updated": self.cards_updated,
                "interviews": self.interviews, "problems": list(self.problems),
                "encodings": {p: e.name for p, e in self.encodings.items()}, "assumptions": [a.to_json() for a in self.assumptions],
                "duplicates": [d.to_json(self.duplicate_policy) for d in self.duplicates]}

    def lines(self) -> list[str]:
        """The summary's details as text lines (what the CLI prints under the counts)."""
        how = {"detected": "detected", "guessed": "a guess", "chosen": "chosen", "option": "--encoding"}
        out = [f"encoding: {p}: read as {e.name} ({how[e.how]})" for p, e in self.encodings.items()]
        out += [f"assumed: {a.describe()}" for a in self.assumptions]
        out += [f"duplicate: {d.describe(self.duplicate_policy)}" for d in self.duplicates]
        return out + [f"problem: {p}" for p in self.problems]


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


class _TooSlow(Exception):
    """Reading one file went past its time budget."""


def _check_deadline(clock: Callable[[], float], deadline: float) -> None:
    if clock() > deadline:
        raise _TooSlow


def plan_import(inputs: list[Path], progress: Callable[[int, int], None] | None = None, *,
                encoding: str | None = None, encodings: dict[Path, str] | None = None, guess: bool = False,
                col: Collection | None = None, today: date | None = None, tz: str = "Asia/Shanghai",
                file_budget_s: float = FILE_BUDGET_S, clock: Callable[[], float] = time.monotonic) -> ImportPlan:
    """Read the files and list what they hold; nothing is written.

    `encoding` reads files whose encoding is unclear (never UTF-8 ones, nor clearly detected
    ones); `encodings` reads the given files in the given encoding (the preview's choice);
    `guess` reads unclear files in the best guess instead of refusing them. With `col`, the
    duplicates (in the import and against the collection) are listed for the preview.
    """
    zone = ZoneInfo(tz)
    today = today or datetime.now(zone).date()
    chosen = {Path(p): name for p, name in (encodings or {}).items()}
    files, problems = collect_files([Path(p) for p in inputs])
    plan = ImportPlan(problems=problems)
    used_keys: set[str] = set()
    for n, path in enumerate(files, start=1):
        if progress:
            progress(n, len(files))
        on_time = partial(_check_deadline, clock, clock() + file_budget_s)
        try:
            found = _plan_file(path, plan, chosen.get(path), encoding, guess, today, zone, on_time)
        except _TooSlow:
            plan.problems.append(f"{path}: took too long to read (over {file_budget_s:g} s); skipped")
            continue
        if found is None:
            continue
        text, cards, interviews, problems_here, read_as, assumption = found
        plan.files.append(path)
        plan.texts[path] = text
        for planned in cards:  # the same card twice in one file: the later one gets its own key
            base, k = planned.key, 2
            while planned.key in used_keys:
                planned.key, k = f"{base}-{k}", k + 1
            used_keys.add(planned.key)
        plan.cards.extend(cards)
        plan.interviews.extend(interviews)
        plan.problems.extend(problems_here)
        if read_as is not None:
            plan.encodings[path] = read_as
        if assumption is not None:
            plan.assumptions.append(assumption)
        try:
            plan.mtimes[path] = path.stat().st_mtime
        except OSError:
            plan.mtimes[path] = 0.0
    if col is not None:
        selected = [c for c in plan.cards if c.selected]
        with col.db.session() as s:
            seen = _Collection(s, selected)  # what each policy would decide: the preview shows the chosen one
            plan.duplicates_by_policy = {policy: find_duplicates(s, selected, plan.mtimes, policy, seen)
                                         for policy in DUPLICATE_POLICIES}
        plan.duplicates = plan.duplicates_by_policy["keep_both"]
    return plan


def _plan_file(path: Path, plan: ImportPlan, forced: str | None, fallback: str | None, guess: bool,
               today: date, zone: ZoneInfo, on_time: Callable[[], None]):
    """One file's text, cards, interviews, problems, encoding and year assumption (or None)."""
    try:
        reading, read_as = read_for_import(path, forced, fallback, guess)
    except UnreadableFile as exc:
        if isinstance(exc, EncodingUnclear):
            plan.unclear[path] = exc.candidates
        plan.problems.append(refusal(path, exc))
        return None
    except OSError as exc:
        plan.problems.append(f"{path}: cannot read: {exc}")
        return None
    text = reading.text
    on_time()
    problems: list[str] = []
    front, body = split_front_matter(text)
    if front.error:
        problems.append(f"{path}:1: {front.error}; the note is imported without its front matter")
    offset = text[: len(text) - len(body)].count("\n")
    source = str(path.resolve())
    cards = []
    for card in extract_cards(body):
        card.line += offset
        cards.append(PlannedCard(card.stable_key(source), card, path))
    on_time()
    rows, table_problems = find_interview_rows(body)
    on_time()
    interviews = []
    for row in rows:
        row.line += offset
        key = "import:" + hashlib.sha1(f"{source}\n{row.when_text.strip()}\n{row.company}".encode()).hexdigest()[:16]
        interviews.append(PlannedInterview(key, row, path))
    problems.extend(f"{path}:{p.line + offset}: {p.message}" for p in table_problems)
    assumption = _assume_years(path, interviews, front, today, zone)
    return text, cards, interviews, problems, read_as, assumption


def _month_day(when_text: str) -> tuple[int, int] | None:
    """(month, day) of a date written without a year; None if it has a year or cannot be read."""
    from studio.core.interviews import DateNeedsYear, parse_when

    try:
        parse_when(when_text, ZoneInfo("UTC"))
        return None
    except DateNeedsYear:
        pass
    except ValueError:
        return None
    try:
        day = parse_when(when_text, ZoneInfo("UTC"), 2000)  # a leap year: 2/29 reads
    except ValueError:
        return None
    return day.month, day.day


def _assume_years(path: Path, interviews: list[PlannedInterview], front, today: date,
                  zone: ZoneInfo) -> YearAssumption | None:
    yearless = [(p, md) for p in interviews if (md := _month_day(p.row.when_text)) is not None]
    if not yearless:
        return None
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = None
    basis = year_basis(front.created_date, front.updated_date, mtime, today, zone)
    for planned, (month, day) in yearless:
        planned.year = place_year(month, day, basis)
    return YearAssumption(path, basis, len(yearless), [p.year for p, _ in yearless])


# ----- duplicates ----------------------------------------------------------------------------
#
# An imported card's `origin` (JSON) says where it came from and, after a duplicate decision,
# what it stands for: "import_key" is the planned key whose text it carries when that is not
# its own key (keep-newest put an imported text into it), "settled" maps the keys of cards
# that a decision left out to "digest/policy" (a digest of their text, the policy). A card
# whose text a card carries ("at home"), or that was left out with the same text
# ("settled"), is a re-import next time: nothing is asked again until its text changes, or
# until another policy than keep_both (the default) and the one recorded is chosen.


# One definition of "the same question", of a text's digest and of a card's origin for both
# importers (card_duplicates serves the Anki/CSV one).
normal_question = same_question
_digest = text_digest
_origin = card_origin


def _writer(card: Card) -> str:
    """The planned key whose text the card carries."""
    key = _origin(card).get("import_key")
    return key if isinstance(key, str) else card.key


class _Collection:
    """The collection's cards as one import sees them: by key, by carried key, by settled key."""

    def __init__(self, s, cards: list[PlannedCard]):
        keys = [c.key for c in cards]
        wanted = set(keys)
        self.by_key: dict[str, Card] = {}
        self.by_writer: dict[str, Card] = {}
        self.by_settled: dict[str, tuple[Card, str]] = {}
        for i in range(0, len(keys), 500):
            for card in s.scalars(select(Card).where(Card.key.in_(keys[i:i + 500]))):
                self.by_key[card.key] = card
        marked = s.scalars(select(Card).where(Card.source != "shipped", or_(
            Card.origin.like('%"import_key"%'), Card.origin.like('%"settled"%'))))
        for card in marked:
            origin = _origin(card)
            if origin.get("import_key") in wanted:
                self.by_writer.setdefault(origin["import_key"], card)
            settled = origin.get("settled")
            for key, digest in (settled.items() if isinstance(settled, dict) else ()):
                if key in wanted:
                    self.by_settled.setdefault(key, (card, digest))

    def home(self, planned: PlannedCard) -> Card | None:
        """The card that carries this planned card's text (a re-import updates it in place)."""
        for card in (self.by_writer.get(planned.key), self.by_key.get(planned.key)):
            if card is not None and _writer(card) == planned.key:
                return card
        return None

    def owned(self, planned: PlannedCard) -> Card | None:
        """The card with this key whose text another card's has replaced (keep-newest)."""
        card = self.by_key.get(planned.key)
        return card if card is not None and _writer(card) != planned.key else None

    def earlier(self, planned: PlannedCard) -> str | None:
        """The policy an earlier import left this card out by, if its text is unchanged since."""
        entry = self.by_settled.get(planned.key)
        if entry is None or self.home(planned) is not None:
            return None
        digest, _, decided = str(entry[1]).partition("/")
        card = planned.card
        return decided if digest == _digest(card.question, card.answer) else None

    def settled(self, planned: PlannedCard, policy: str) -> bool:
        """Left out by an earlier decision, unchanged since, and not reopened by another policy."""
        decided = self.earlier(planned)
        return decided is not None and policy in ("keep_both", decided)


def find_duplicates(s, cards: list[PlannedCard], mtimes: dict[Path, float], policy: str = "keep_both",
                    seen: _Collection | None = None) -> list[Duplicate]:
    """Questions that occur twice in `cards`, or in `cards` and the collection (shipped cards aside).

    Groups in which every card is already in the collection from an earlier import (or was
    left out by an earlier decision, unchanged) are a re-import and not listed.
    """
    seen = seen or _Collection(s, cards)
    live = [c for c in cards if not seen.settled(c, policy)]
    groups: dict[str, list[PlannedCard]] = {}
    for planned in live:
        groups.setdefault(normal_question(planned.card.question), []).append(planned)
    homes = {card.id for p in live if (card := seen.home(p)) is not None}
    in_collection: dict[str, ExistingCard] = {}
    rows = s.execute(select(Card.id, Card.key, Card.q_en, Card.q_zh)
                     .where(Card.source != "shipped", Card.retired.is_(False)).order_by(Card.id))
    for card_id, key, q_en, q_zh in rows:
        if card_id in homes:
            continue
        for question in (q_en, q_zh):
            norm = normal_question(question or "")
            if norm in groups and norm not in in_collection:
                in_collection[norm] = ExistingCard(card_id, key, question)
    out = []
    for norm, members in groups.items():
        existing = in_collection.get(norm)
        if len(members) + bool(existing) < 2 or all(seen.home(m) is not None for m in members):
            continue
        members.sort(key=lambda m: (mtimes.get(m.path, 0.0), str(m.path), m.card.line))
        imported = [m for m in members if seen.home(m) is not None]
        out.append(Duplicate(members[0].card.question, members, existing, imported,
                             [m for m in members if seen.earlier(m) is not None]))
    return out


def _card_fields(card: ExtractedCard) -> dict:
    if _CJK.search(card.question):
        return {"q_zh": card.question, "a_zh": card.answer, "q_en": "", "a_en": ""}
    return {"q_en": card.question, "a_en": card.answer, "q_zh": "", "a_zh": ""}


def apply_import(col: Collection, plan: ImportPlan, copy: bool = False, year: int | None = None,
                 tz: str = "Asia/Shanghai", progress: Callable[[int, int], None] | None = None,
                 duplicates: str = "keep_both") -> ImportSummary:
    """Write the plan's selected notes, cards and interviews; return the summary.

    `year` puts every date written without a year in that year (else each file's assumed
    year); `duplicates` is one of DUPLICATE_POLICIES.
    """
    from studio.core.interviews import DateNeedsYear, parse_when

    if duplicates not in DUPLICATE_POLICIES:
        raise ValueError(f"duplicates must be one of {', '.join(DUPLICATE_POLICIES)}, not {duplicates!r}")
    summary = ImportSummary(problems=list(plan.problems), duplicate_policy=duplicates)
    summary.encodings = {str(p): e for p, e in plan.encodings.items()}
    summary.assumptions = [a if year is None else YearAssumption(a.path, None, a.rows, [year] * a.rows)
                           for a in plan.assumptions]
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
        _write_cards(s, plan, duplicates, summary, now)
        for planned in plan.interviews:
            if not planned.selected:
                continue
            row = planned.row
            try:
                when = parse_when(row.when_text, zone, year or planned.year)
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


def _write_cards(s, plan: ImportPlan, policy: str, summary: ImportSummary, now: datetime) -> None:
    """Insert or update the selected cards, deciding each duplicate by `policy` (see the top)."""
    selected = [c for c in plan.cards if c.selected]
    seen = _Collection(s, selected)
    summary.duplicates = find_duplicates(s, selected, plan.mtimes, policy, seen)
    live = [p for p in selected if not seen.settled(p, policy)]
    # Where each card goes: a Card to write into, None to insert under its own key, or DROP.
    target: dict[int, Card | None | str] = {id(p): seen.home(p) or seen.owned(p) for p in live}
    settle: list[tuple[PlannedCard, Card | PlannedCard]] = []  # left out, recorded in that card
    for dup in summary.duplicates:
        members, existing = dup.cards, (s.get(Card, dup.existing.id) if dup.existing else None)
        at_home = dup.imported
        loose = [m for m in members if seen.home(m) is None]
        if policy == "keep_both":
            for m in loose:
                owned = seen.owned(m)
                displaced = [w for w in at_home if owned is not None and seen.home(w) is owned]
                for w in displaced:  # its card goes back to its own key's text; it gets one of its own
                    target[id(w)] = seen.by_key.get(w.key)
            continue
        if policy == "keep_newest":
            newest = members[-1]
            into = (seen.home(newest) or (seen.home(at_home[-1]) if at_home else None) or existing
                    or seen.owned(newest))
            target[id(newest)] = into
            for m in members[:-1]:
                target[id(m)] = DROP
                if seen.home(m) is None or seen.home(m) is into:
                    settle.append((m, into if into is not None else newest))
            continue
        # skip: what is already there stays; otherwise the first one
        if at_home:
            keeper: Card | PlannedCard = seen.home(at_home[0])
        elif existing is not None:
            keeper = existing
        else:
            keeper = members[0]
        for m in loose:
            if m is not keeper:
                target[id(m)] = DROP
                settle.append((m, keeper))
    written: dict[int, Card] = {}
    for planned in live:
        card = target[id(planned)]
        if card is DROP:
            continue
        written[id(planned)] = _write_card(s, planned, card, summary, now)
    for planned, into in settle:
        card = into if isinstance(into, Card) else written[id(into)]
        origin = _origin(card)
        settled = origin.get("settled") if isinstance(origin.get("settled"), dict) else {}
        settled[planned.key] = f"{_digest(planned.card.question, planned.card.answer)}/{policy}"
        origin["settled"] = settled
        card.origin = json.dumps(origin, ensure_ascii=False)


def _write_card(s, planned: PlannedCard, card: Card | None, summary: ImportSummary, now: datetime) -> Card:
    """Put one planned card's text into `card` (None: a new card under its key); count it."""
    fields = _card_fields(planned.card)
    origin = {"file": str(planned.path.resolve()), "line": planned.card.line, "shape": planned.card.shape}
    if card is None:
        card = Card(key=planned.key, source="imported", kind="qa", tags="imported",
                    origin=json.dumps(origin, ensure_ascii=False), created_at=now, modified_at=now, due=now,
                    **fields)
        s.add(card)
        summary.cards += 1
        return card
    before = _origin(card)
    writer = _writer(card)
    settled = dict(before.get("settled") or {}) if isinstance(before.get("settled"), dict) else {}
    if writer != planned.key and card.key != planned.key:
        # keep-newest replaced the text this card carried: remember it, so that its file's next
        # import is not asked again (a card taking back its own key's card records nothing).
        settled[writer] = f"{_digest(card.q_zh or card.q_en, card.a_zh or card.a_en)}/keep_newest"
    settled.pop(planned.key, None)
    if card.key != planned.key:
        origin["import_key"] = planned.key
    if settled:
        origin["settled"] = settled
    origin_text = json.dumps(origin, ensure_ascii=False)
    if any(getattr(card, k) != v for k, v in fields.items()) or card.origin != origin_text:
        for k, v in fields.items():
            setattr(card, k, v)
        card.origin, card.modified_at = origin_text, now
        summary.cards_updated += 1
    return card


def import_notes(col: Collection, inputs: list[Path], copy: bool = False, year: int | None = None,
                 duplicates: str = "keep_both") -> ImportSummary:
    return apply_import(col, plan_import(inputs), copy=copy, year=year, duplicates=duplicates)


__all__ = ["ImportPlan", "ImportSummary", "Duplicate", "DUPLICATE_POLICIES", "plan_import", "apply_import",
           "import_notes", "find_duplicates"]
