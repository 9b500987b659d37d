"""Importing Anki decks: .apkg packages (collection.anki2 / .anki21 / zstd .anki21b) and cards
read from Anki's CSV/TSV text export, into this app's cards.

Two steps like the notes importer, so the GUI can preview: `plan_cards(path)` reads a file and
lists the cards it holds (with every problem, named by file and line or note) without writing;
`apply_cards` writes the selected ones. Every Anki card gets a stable key, "anki:<guid>" (with
"#<ord>" for a note's second template, "#c<n>" for cloze deletions), so importing the same deck
again updates text in place and keeps scheduling. Review history is either replayed through
the FSRS scheduler (each revlog answer at its own time, so state and due match what FSRS would
have given) or dropped so the cards start as new: the user chooses.

Decks are shared files, so nothing in one is trusted: `Limits` caps what reading one file may
cost (anki_limits: archive bombs, a time budget, SQLite interrupted too); field HTML is read in
linear time (field_text); every number and date read from the deck goes through a checked
conversion, and a value that is impossible drops only what it belongs to (a review, Anki's
scheduling of a card, a card) with a problem line naming the note, while the rest of the deck
imports; the same question twice is listed and decided by one policy (card_duplicates).
"""

from __future__ import annotations

import html
import json
import math
import re
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

from studio.core.collection import Collection, utcnow
from studio.core.importers.anki_limits import (MB, AnkiFileProblem, Deadline, LimitExceeded, LimitHit, Limits,
                                               extract_entry)
from studio.core.importers.card_duplicates import (DUPLICATE_CHOICES, CardDuplicate, KnownCards, card_origin,
                                                   digest, duplicates_by_policy, find_card_duplicates,
                                                   same_question)
from studio.core.importers.field_text import field_refs, html_to_text, text_to_html
from studio.core.importers.notes_import import ImportSummary
from studio.core.importers.text_files import FileEncoding
from studio.core.models import Card, ReviewLog

_CJK = re.compile(r"[\u4e00-\u9fff]")
# This app's own export note type names its fields so bilingual cards come back whole.
OWN_FIELDS = ("Front", "Back", "Front (zh)", "Back (zh)")
# Its rendered export (exporters.py) keeps each note's Markdown in this field instead.
SOURCE_FIELD = "Studio source"
HISTORY_CHOICES = ("keep", "new")


@dataclass
class AnkiReview:
    at: datetime  # naive UTC
    rating: int  # 1..4
    duration_ms: int | None = None


@dataclass
class ImportedCard:
    """One card as read from a deck, before it is written."""

    key: str
    q_en: str = ""
    a_en: str = ""
    q_zh: str = ""
    a_zh: str = ""
    tags: str = ""
    deck: str = ""
    kind: str = "qa"
    cloze_ord: int = 0
    origin: str = ""
    alt_key: str = ""  # the guid itself: a card this app exported keeps its own key
    reviews: list[AnkiReview] = field(default_factory=list)
    # Used when there is no revlog: Anki's own memory of the card (interval, factor, due).
    anki_state: dict | None = None
    selected: bool = True
    where: str = ""  # "note <guid> card <n>" or "line <n>", for messages
    modified: int | None = None  # Anki's note modification time (seconds), when believable

    @property
    def question(self) -> str:
        return self.q_en or self.q_zh

    @property
    def answer(self) -> str:
        return self.a_en or self.a_zh


@dataclass
class CardPlan:
    source: Path
    cards: list[ImportedCard] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Questions found more than once (in the file; with `col`, also against the collection).
    # Their lines are in `problems` too, for the preview; apply_cards says what it did instead.
    duplicates: list[CardDuplicate] = field(default_factory=list)
    duplicate_lines: list[str] = field(default_factory=list)
    # What each policy would decide (an earlier decision reopened by one policy only): the
    # preview shows the chosen policy's list; `duplicates` is keep_both's.
    duplicates_by_policy: dict[str, list[CardDuplicate]] = field(default_factory=dict)
    encodings: dict[Path, FileEncoding] = field(default_factory=dict)  # a CSV/TSV not read as UTF-8
    unclear: dict[Path, list[str]] = field(default_factory=dict)  # refused: encoding candidates
    # The limit that stopped reading (nothing imported), and its problem line, whose hint names
    # the CLI flag; the import dialog shows `refusal` and offers a retry with `limit.raised`.
    limit: LimitHit | None = None
    limit_line: str = ""
    refusal: str = ""

    def refuse(self, exc: AnkiFileProblem) -> None:
        """Nothing imported, for the reason `exc` gives (a limit recorded as such)."""
        self.cards.clear()
        self.refusal = f"{self.source}: {exc}; nothing imported"
        self.problems.append(self.refusal + exc.hint)
        if exc.limit is not None:
            self.limit, self.limit_line = exc.limit, self.problems[-1]


# --- text ------------------------------------------------------------------------------
def split_language(question: str, answer: str) -> dict[str, str]:
    if _CJK.search(question):
        return {"q_zh": question, "a_zh": answer, "q_en": "", "a_en": ""}
    return {"q_en": question, "a_en": answer, "q_zh": "", "a_zh": ""}


def guid_key(guid: str) -> str:
    return f"anki:{guid}"


# --- checked values --------------------------------------------------------------------
_EPOCH = datetime(1970, 1, 1)
_INT_TEXT = re.compile(r"-?\d{1,19}")
_MAX_DAYS = 36525  # a century: Anki's longest interval is 36500 days


def _int(value) -> int | None:
    """An integer as SQLite may hold it (int, integral float, digits), or None."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None  # False for inf and nan
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    if isinstance(value, str) and _INT_TEXT.fullmatch(value.strip()):
        return int(value)
    return None


def _int_in(value, low: int, high: int) -> int | None:
    number = _int(value)
    return number if number is not None and low <= number <= high else None


def _text(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def _moment(ms: int | None, latest: datetime) -> datetime | None:
    """Milliseconds since 1970 as a naive UTC time, or None outside 1970..latest."""
    if ms is None or ms < 0 or ms > (latest - _EPOCH) // timedelta(milliseconds=1):
        return None
    return _EPOCH + timedelta(milliseconds=ms)


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --- packages --------------------------------------------------------------------------
def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    shift = value = 0
    for _ in range(10):  # a 64-bit varint has at most 10 bytes
        if i >= len(data):
            raise ValueError("truncated varint")
        b = data[i]
        value |= (b & 0x7F) << shift
        i += 1
        if not b & 0x80:
            return value, i
        shift += 7
    raise ValueError("varint longer than 10 bytes")


def _proto_fields(data: bytes) -> dict[int, list]:
    """The top-level fields of a protobuf message (enough for Anki's template/notetype config)."""
    out: dict[int, list] = {}
    if not isinstance(data, bytes):
        return out
    i = 0
    while i < len(data):
        key, i = _read_varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _read_varint(data, i)
        elif wire == 2:
            size, i = _read_varint(data, i)
            value, i = data[i:i + size], i + size
        elif wire == 1:
            value, i = data[i:i + 8], i + 8
        elif wire == 5:
            value, i = data[i:i + 4], i + 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        out.setdefault(number, []).append(value)
    return out


def _proto_text(proto: dict[int, list], number: int) -> str:
    value = proto.get(number, [b""])[0]
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else ""


@dataclass
class _NoteType:
    name: str
    fields: list[str]
    templates: list[tuple[str, str]]  # (question format, answer format) by ord
    cloze: bool
    refs: list[tuple[list[str], list[str]]] = field(default_factory=list)  # field names per template

    def __post_init__(self) -> None:
        self.refs = [(list(dict.fromkeys(field_refs(q))), list(dict.fromkeys(field_refs(a))))
                     for q, a in self.templates]


def _json_dict(row) -> dict:
    try:
        value = json.loads(_text(row[0])) if row and row[0] else {}
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _ordered(items) -> list[dict]:
    dicts = [d for d in items if isinstance(d, dict)] if isinstance(items, list) else []
    return sorted(dicts, key=lambda d: _int(d.get("ord")) or 0)


def _legacy_note_types(db: sqlite3.Connection, deadline: Deadline) -> dict[int, _NoteType]:
    out = {}
    for mid, m in _json_dict(db.execute("SELECT models FROM col").fetchone()).items():
        deadline.check("note types")
        mid_int = _int(mid)
        if mid_int is None or not isinstance(m, dict):
            continue
        fields = [_text(f.get("name", "")) for f in _ordered(m.get("flds"))]
        tmpls = [(_text(t.get("qfmt", "")), _text(t.get("afmt", ""))) for t in _ordered(m.get("tmpls"))]
        out[mid_int] = _NoteType(_text(m.get("name", "")), fields, tmpls, m.get("type", 0) == 1)
    return out


def _new_note_types(db: sqlite3.Connection, deadline: Deadline) -> dict[int, _NoteType]:
    out = {}
    for ntid, name, config in db.execute("SELECT id, name, config FROM notetypes").fetchall():
        deadline.check("note types")
        ntid_int = _int(ntid)
        if ntid_int is None:
            continue
        kind = _proto_fields(config).get(1, [0])[0]
        fields = [_text(r[0]) for r in db.execute("SELECT name FROM fields WHERE ntid=? ORDER BY ord", (ntid,))]
        tmpls = []
        for (tconfig,) in db.execute("SELECT config FROM templates WHERE ntid=? ORDER BY ord", (ntid,)):
            proto = _proto_fields(tconfig)
            tmpls.append((_proto_text(proto, 1), _proto_text(proto, 2)))
        name = _text(name)
        out[ntid_int] = _NoteType(name, fields, tmpls, kind == 1 or "cloze" in name.lower())
    return out


def _question_answer(nt: _NoteType | None, values: list[str], ord_: int) -> tuple[str, str]:
    """Which fields a card shows on its front and back, read from its template."""
    named = dict(zip(nt.fields, values)) if nt else {}
    if nt and ord_ < len(nt.refs):
        q_refs, a_refs = nt.refs[ord_]
        q_names = [n for n in q_refs if n in named]
        a_names = [n for n in a_refs if n in named and n not in q_names]
        if q_names:
            return ("\n\n".join(named[n] for n in q_names if named[n].strip()),
                    "\n\n".join(named[n] for n in a_names if named[n].strip()))
    first, second = (values + ["", ""])[:2]
    return (second, first) if ord_ == 1 and not (nt and nt.cloze) else (first, "\n\n".join(v for v in values[1:] if v.strip()))


def _open_collection_file(path: Path, workdir: Path, limits: Limits, deadline: Deadline) -> Path:
    """Extract the newest collection database in the package into workdir."""
    target = workdir / "collection.sqlite"
    try:
        with zipfile.ZipFile(path) as zf:
            entries = {info.filename: info for info in zf.infolist()}
            for name in ("collection.anki21b", "collection.anki21", "collection.anki2"):
                if name in entries:
                    break
            else:
                raise AnkiFileProblem("no collection.anki21b, collection.anki21 or collection.anki2 inside")
            extract_entry(zf, entries[name], target, limits, deadline)
    except AnkiFileProblem:
        raise
    except zipfile.BadZipFile as exc:
        raise AnkiFileProblem(f"not a valid .apkg (zip) file: {exc}") from exc
    except Exception as exc:  # zlib.error, EOFError, OSError... from a damaged member
        raise AnkiFileProblem(f"cannot read the package (truncated or damaged?): {exc}") from exc
    return target


def plan_package(path: Path, limits: Limits | None = None, deadline: Deadline | None = None) -> CardPlan:
    """Cards (with review history) of an .apkg, or the reason it cannot be read."""
    limits = limits or Limits()
    deadline = deadline or Deadline(limits)
    plan = CardPlan(path)
    with tempfile.TemporaryDirectory(prefix="studio-apkg-") as tmp:
        try:
            db_path = _open_collection_file(path, Path(tmp), limits, deadline)
            db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
            # No single value bigger than the entry limit; and a hostile view cannot run forever.
            db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(db.getlimit(sqlite3.SQLITE_LIMIT_LENGTH),
                                                         max(1, int(limits.max_entry_mb * MB))))
            db.set_progress_handler(deadline.expired, 10_000)
            try:
                _read_collection(db, path, plan, deadline)
            finally:
                db.close()
        except AnkiFileProblem as exc:
            plan.refuse(exc)
        except sqlite3.OperationalError as exc:
            plan.cards.clear()
            if deadline.expired():
                plan.refuse(deadline.problem("reading the collection"))
            else:
                plan.problems.append(f"{path}: the collection inside is damaged ({exc}); nothing imported")
        except (sqlite3.Error, ValueError, KeyError, TypeError, RecursionError) as exc:
            plan.cards.clear()
            plan.problems.append(f"{path}: the collection inside is damaged ({exc}); nothing imported")
        except Exception as exc:  # a deck no check foresaw must still end in a sentence
            plan.cards.clear()
            plan.problems.append(f"{path}: cannot read this deck (unexpected {type(exc).__name__}: {exc}); "
                                 "nothing imported")
    return plan


def _decks(db: sqlite3.Connection, tables: set[str]) -> dict[int, str]:
    if "decks" in tables:
        rows = db.execute("SELECT id, name FROM decks").fetchall()
        return {i: _text(n).replace("\x1f", "::") for i, n in ((_int(i), n) for i, n in rows) if i is not None}
    decks = _json_dict(db.execute("SELECT decks FROM col").fetchone())
    return {i: _text(d.get("name", "")) for i, d in ((_int(i), d) for i, d in decks.items())
            if i is not None and isinstance(d, dict)}


def _read_collection(db: sqlite3.Connection, path: Path, plan: CardPlan, deadline: Deadline) -> None:
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    note_types = _new_note_types(db, deadline) if "notetypes" in tables else _legacy_note_types(db, deadline)
    now = utcnow()
    latest = now + timedelta(days=1)  # nothing was reviewed or edited in the future
    latest_s = int((latest - _EPOCH).total_seconds())
    row = db.execute("SELECT crt FROM col").fetchone()
    crt = _int_in(row[0], 0, latest_s) if row else None
    if row and crt is None:
        plan.problems.append(f"{path}: the collection's creation time {_show(row[0])} is impossible; "
                             "cards without review history start as new")
    decks = _decks(db, tables)
    notes = {}
    for nid, guid, mid, mod, tags, flds in db.execute("SELECT id, guid, mid, mod, tags, flds FROM notes"):
        deadline.check(f"{len(notes)} notes read")
        nid_int, guid = _int(nid), _text(guid).strip()
        if nid_int is None or not guid or len(guid) > 200:
            plan.problems.append(f"{path}: a note with id {_show(nid)} and guid {_show(guid)} cannot be keyed; "
                                 "its cards are skipped")
            continue
        modified = _int_in(mod, 0, latest_s)
        if mod is not None and modified is None:
            plan.problems.append(f"{path}: note {guid}: modification time {_show(mod)} is impossible; "
                                 "file order stands for it")
        notes[nid_int] = (guid, _int(mid), _text(tags).strip(), _text(flds).split("\x1f"), modified)
    reviews: dict[int, list[AnkiReview]] = {}
    bad_reviews: dict[int, tuple[list[str], list[str]]] = {}  # card: (impossible times, answers)
    for n, (rid, cid, ease, rtype, ms) in enumerate(db.execute("SELECT id, cid, ease, type, time FROM revlog")):
        if n % 1024 == 0:
            deadline.check(f"{n} reviews read")
        cid_int, ease_int, type_int = _int(cid), _int(ease), _int(rtype)
        if cid_int is None:
            continue  # belongs to no card that can be named
        if ease_int == 0 or type_int in (4, 5):
            continue  # manual rescheduling, not an answer
        at = _moment(_int(rid), latest)
        if at is None or ease_int not in (1, 2, 3, 4) or type_int not in (0, 1, 2, 3):
            times, answers = bad_reviews.setdefault(cid_int, ([], []))
            if at is None:
                times.append(_show(rid))
            else:
                answers.append(f"{_show(ease)} of type {_show(rtype)}")
            continue
        duration = _int_in(ms, 0, 86_400_000)
        reviews.setdefault(cid_int, []).append(AnkiReview(at, ease_int, duration or None))
    for items in reviews.values():
        items.sort(key=lambda r: r.at)
    texts_by_note: dict[int, list[str]] = {}
    rows = db.execute("SELECT id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, data FROM cards "
                      "ORDER BY nid, ord")
    for n, (cid, nid, did, ord_raw, ctype, _queue, due, ivl, factor, reps, lapses, data) in enumerate(rows):
        if n % 256 == 0:
            deadline.check(f"{n} cards read")
        cid, nid = _int(cid), _int(nid)
        if nid not in notes:
            plan.problems.append(f"{path}: card {_show(cid)} belongs to no note; skipped")
            continue
        guid, mid, tags, raw, modified = notes[nid]
        ord_ = _int_in(ord_raw, 0, 9999)
        if cid is None or ord_ is None:
            plan.problems.append(f"{path}: note {guid}: a card with id {_show(cid)} and template number "
                                 f"{_show(ord_raw)} cannot be read; skipped")
            continue
        nt = note_types.get(mid)
        values = texts_by_note.get(nid)
        if values is None:
            values = texts_by_note[nid] = [html_to_text(v) for v in raw]
        own = nt is not None and tuple(nt.fields[:4]) == OWN_FIELDS and len(values) >= 4
        source = _own_source(nt, raw)
        if source is not None:
            texts = {k: source[k] for k in ("q_en", "a_en", "q_zh", "a_zh")}
            tags = source["tags"]
        elif own:
            texts = dict(q_en=values[0], a_en=values[1], q_zh=values[2], a_zh=values[3])
        else:
            q, a = _question_answer(nt, values, ord_)
            texts = split_language(q, a)
        cloze = bool(nt and nt.cloze)
        suffix = f"#c{ord_ + 1}" if cloze else (f"#{ord_}" if ord_ else "")
        where = f"note {guid} card {ord_ + 1}"
        if not (texts["q_en"] or texts["q_zh"]).strip():
            plan.problems.append(f"{path}: {where} has an empty front; skipped")
            continue
        issues = [_dropped_reviews(*bad_reviews[cid])] if cid in bad_reviews else []
        state = None
        if _int(ctype) == 2 and cid not in reviews:
            state, why = _anki_state(crt, due, ivl, factor, reps, lapses, data, now)
            issues.extend(why)
        if issues:
            plan.problems.append(f"{path}: {where}: {'; '.join(issues)}")
        plan.cards.append(ImportedCard(
            key=guid_key(guid) + suffix, alt_key=guid + suffix,
            tags=" ".join(t.lower() for t in tags.split()), deck=decks.get(_int(did), "")[:100],
            kind="cloze" if cloze else "qa", cloze_ord=ord_ + 1 if cloze else 0,
            origin=json.dumps({"file": str(path), "anki_note": nid, "anki_card": cid}),
            reviews=reviews.get(cid, []), anki_state=state, where=where, modified=modified, **texts))
    if not plan.cards and not plan.problems:
        plan.problems.append(f"{path}: the deck holds no cards")


def _own_source(nt: _NoteType | None, raw: list[str]) -> dict[str, str] | None:
    """The Markdown this app's rendered export keeps in its hidden field, when intact."""
    if nt is None or SOURCE_FIELD not in nt.fields:
        return None
    at = nt.fields.index(SOURCE_FIELD)
    if at >= len(raw):
        return None
    try:
        data = json.loads(html.unescape(raw[at]))
    except (ValueError, RecursionError):
        return None
    keys = ("q_en", "a_en", "q_zh", "a_zh", "tags")
    if not isinstance(data, dict) or not all(isinstance(data.get(k, ""), str) for k in keys):
        return None
    texts = {k: data.get(k, "") for k in keys}
    return texts if (texts["q_en"] or texts["q_zh"]).strip() else None


def _dropped_reviews(times: list[str], answers: list[str]) -> str:
    parts = []
    if times:
        parts.append(f"review time{'s' if len(times) > 1 else ''} {', '.join(times)} (revlog id)")
    if answers:
        parts.append(f"answer{'s' if len(answers) > 1 else ''} {', '.join(answers)}")
    total = len(times) + len(answers)
    return (f"{' and '.join(parts)} {'is' if total == 1 else 'are'} impossible; "
            f"{'that review is' if total == 1 else f'those {total} reviews are'} dropped")


def _anki_state(crt, due, ivl, factor, reps, lapses, data, now: datetime) -> tuple[dict | None, list[str]]:
    """Anki's scheduling of a review card with no revlog, checked; or None and what was wrong."""
    if crt is None:
        return None, []  # reported once for the whole collection
    values = {"due day": _int_in(due, -_MAX_DAYS, 2 * _MAX_DAYS), "interval": _int_in(ivl, 0, _MAX_DAYS),
              "ease factor": _int_in(factor if factor is not None else 2500, 0, 100_000),
              "reps": _int_in(reps if reps is not None else 0, 0, 1_000_000),
              "lapses": _int_in(lapses if lapses is not None else 0, 0, 1_000_000)}
    raw = {"due day": due, "interval": ivl, "ease factor": factor, "reps": reps, "lapses": lapses}
    bad = [f"{name} {_show(raw[name])}" for name, v in values.items() if v is None]
    due_at = None
    if not bad:
        due_at = _EPOCH + timedelta(seconds=crt) + timedelta(days=values["due day"])
        if not _EPOCH <= due_at <= now + timedelta(days=_MAX_DAYS):
            bad.append(f"due date {due_at:%Y-%m-%d}")
    if bad:
        return None, [f"{', '.join(bad)} {'is' if len(bad) == 1 else 'are'} impossible; "
                      "Anki's scheduling is dropped and the card starts as new"]
    try:
        extra = json.loads(data) if isinstance(data, (str, bytes)) and data else {}
    except (ValueError, RecursionError):
        extra = {}
    extra = extra if isinstance(extra, dict) else {}
    memory: dict[str, float | None] = {"s": None, "d": None}
    why = []
    for key, low, high, name in (("s", 0.001, 100.0 * _MAX_DAYS, "stability"), ("d", 1.0, 10.0, "difficulty")):
        value = extra.get(key)
        if value is None:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
                and low <= value <= high:
            memory[key] = float(value)
        else:
            why.append(f"FSRS {name} {_show(value)} is impossible; taken from the interval instead")
    return {"ivl": values["interval"], "factor": values["ease factor"], "due": due_at,
            "reps": values["reps"], "lapses": values["lapses"], **memory}, why


def plan_cards(path: Path, limits: Limits | None = None, col: Collection | None = None, *,
               encoding: str | None = None, encodings: dict[Path, str] | None = None,
               guess: bool = False) -> CardPlan:
    """Read an Anki package or an Anki-style CSV/TSV file (within `limits`).

    With `col`, duplicates against the collection are listed too (for the preview); the ones
    inside the file always are. A CSV/TSV's encoding is decided as the notes importer decides
    it: `encoding` for a file whose encoding is unclear (the CLI's --encoding), `encodings` the
    preview's choice per file, `guess` the best guess for an unclear file (the preview).
    """
    path = Path(path)
    limits = limits or Limits()
    if not path.is_file():
        return CardPlan(path, problems=[f"{path}: no such file"])
    if path.suffix.lower() in (".apkg", ".colpkg", ".zip"):
        plan = plan_package(path, limits)
    else:
        from studio.core.importers.csv_cards import plan_csv

        chosen = {Path(p): name for p, name in (encodings or {}).items()}
        plan = plan_csv(path, limits, encoding=encoding, chosen=chosen.get(path), guess=guess)
    chosen = [c for c in plan.cards if c.selected]
    if chosen and col is not None:
        with col.db.session() as s:
            plan.duplicates_by_policy = duplicates_by_policy(chosen, KnownCards(s, chosen), s)
    elif chosen:
        plan.duplicates_by_policy = duplicates_by_policy(chosen, KnownCards())
    plan.duplicates = plan.duplicates_by_policy.get("keep_both", [])
    if plan.duplicates:
        plan.duplicate_lines = [f"{path}: the same question {d.describe(None)}" for d in plan.duplicates]
        plan.problems.extend(plan.duplicate_lines)
    return plan


# --- writing ---------------------------------------------------------------------------
def _snapshot(fc: FsrsCard, reps: int, lapses: int) -> str:
    return json.dumps({
        "fsrs_state": fc.state.value, "fsrs_step": fc.step, "stability": fc.stability,
        "difficulty": fc.difficulty, "due": _naive(fc.due).isoformat() if fc.due else None,
        "last_review": _naive(fc.last_review).isoformat() if fc.last_review else None,
        "reps": reps, "lapses": lapses,
    })


def _naive(dt: datetime | None) -> datetime | None:
    return None if dt is None else dt.astimezone(timezone.utc).replace(tzinfo=None)


def _replay(card: Card, reviews: list[AnkiReview], scheduler: Scheduler) -> None:
    """Answer the card once per logged review, at the review's own time."""
    fc = FsrsCard(due=card.due.replace(tzinfo=timezone.utc))
    reps = lapses = 0
    last: datetime | None = None
    for n, review in enumerate(sorted(reviews, key=lambda r: r.at)):
        before = _snapshot(fc, reps, lapses)
        was_review = fc.state == State.Review
        fc, _ = scheduler.review_card(fc, Rating(review.rating), review.at.replace(tzinfo=timezone.utc))
        reps += 1
        if review.rating == 1 and was_review:
            lapses += 1
        card.reviews.append(ReviewLog(
            rating=review.rating, reviewed_at=review.at, duration_ms=review.duration_ms, mode="review",
            state_before=before, state_after=fc.state.value, stability_after=fc.stability, was_new=n == 0,
            elapsed_days=None if last is None else (review.at - last).total_seconds() / 86400))
        last = review.at
    card.fsrs_state, card.fsrs_step = fc.state.value, fc.step
    card.stability, card.difficulty = fc.stability, fc.difficulty
    card.due, card.last_review = _naive(fc.due), _naive(fc.last_review)
    card.reps, card.lapses = reps, lapses


def _from_anki_state(card: Card, state: dict) -> None:
    """A reviewed card with no revlog: take Anki's interval (and FSRS memory, when stored)."""
    ivl = max(1, state["ivl"])
    due = state["due"]
    card.fsrs_state, card.fsrs_step = State.Review.value, None
    card.stability = state["s"] if state.get("s") else float(ivl)
    card.difficulty = state["d"] if state.get("d") else min(10.0, max(1.0, 5.0 + (2500 - state["factor"]) / 200))
    card.due, card.last_review = due, due - timedelta(days=ivl)
    card.reps, card.lapses = state["reps"], state["lapses"]


_DROP = "drop"  # a card a duplicate decision leaves out


def apply_cards(col: Collection, plan: CardPlan, history: str = "keep",
                progress: Callable[[int, int], None] | None = None,
                duplicates: str = "keep_both") -> ImportSummary:
    """Write the plan's selected cards in one transaction; existing keys update text only.

    `duplicates` (one of DUPLICATE_CHOICES) decides each question found twice; they are in the
    summary's `duplicates`, each saying what was done, as the notes importer reports them.
    """
    if history not in HISTORY_CHOICES:
        raise ValueError(f"history must be one of {', '.join(HISTORY_CHOICES)}")
    if duplicates not in DUPLICATE_CHOICES:
        raise ValueError(f"duplicates must be one of {', '.join(DUPLICATE_CHOICES)}, not {duplicates!r}")
    planned_lines = set(plan.duplicate_lines)
    summary = ImportSummary(problems=[p for p in plan.problems if p not in planned_lines], duplicate_policy=duplicates,
                            encodings={str(p): e for p, e in plan.encodings.items()})
    chosen = [c for c in plan.cards if c.selected]
    limits = col.get_setting("review.limits", {}) or {}
    scheduler = Scheduler(desired_retention=float(limits.get("desired_retention", 0.9)), enable_fuzzing=False)
    now = utcnow()
    with col.db.session() as s, s.begin():
        known = KnownCards(s, chosen)
        found = summary.duplicates = find_card_duplicates(chosen, known, s, duplicates)
        live = [c for c in chosen if not known.settled(c, duplicates)]
        target: dict[int, Card | None | str] = {id(c): known.home(c) for c in live}
        settle: list[tuple[ImportedCard, Card | ImportedCard]] = []
        for dup in found:
            members = dup.cards
            existing = s.get(Card, dup.existing.id) if dup.existing else None
            loose = [m for m in members if known.home(m) is None]
            if duplicates == "keep_newest":
                newest = dup.newest()
                at_home = [known.home(m) for m in members if known.home(m) is not None]
                into = known.home(newest) or (at_home[-1] if at_home else None) or existing
                target[id(newest)] = into
                for m in members:
                    if m is not newest:
                        target[id(m)] = _DROP
                        if known.home(m) is None or known.home(m) is into:
                            settle.append((m, into if into is not None else newest))
            elif duplicates == "skip":
                at_home = [m for m in members if known.home(m) is not None]
                keeper = known.home(at_home[0]) if at_home else existing if existing is not None else members[0]
                for m in loose:
                    if m is not keeper:
                        target[id(m)] = _DROP
                        settle.append((m, keeper))
        written: dict[int, Card] = {}
        seen: set[str] = set()
        for n, item in enumerate(live, start=1):
            if progress and (n % 200 == 0 or n == len(live)):
                progress(n, len(live))
            card = target[id(item)]
            if card is _DROP:
                continue
            if card is not None:
                if card.key in seen:
                    summary.problems.append(f"{plan.source}: {item.where or item.key} updates the same card "
                                            f"({card.key}) as an earlier one; skipped")
                    continue
                seen.add(card.key)
                if _update(card, item, now):
                    summary.cards_updated += 1
                written[id(item)] = card
                continue
            if item.key in seen:
                summary.problems.append(f"{plan.source}: two cards share the key {item.key}; the second is skipped")
                continue
            seen.add(item.key)
            card = Card(key=item.key, source="imported", deck=item.deck, tags=item.tags, kind=item.kind,
                        cloze_ord=item.cloze_ord, origin=item.origin, created_at=now, modified_at=now, due=now,
                        q_en=item.q_en, a_en=item.a_en, q_zh=item.q_zh, a_zh=item.a_zh)
            if history == "keep" and item.reviews:
                _replay(card, item.reviews, scheduler)
            elif history == "keep" and item.anki_state:
                _from_anki_state(card, item.anki_state)
            s.add(card)
            written[id(item)] = card
            summary.cards += 1
        for item, into in settle:
            card = into if isinstance(into, Card) else written.get(id(into))
            if card is None:
                continue
            origin = card_origin(card)
            settled = origin.get("settled") if isinstance(origin.get("settled"), dict) else {}
            settled[item.key] = f"{digest(item.question, item.answer)}/{duplicates}"
            origin["settled"] = settled
            card.origin = json.dumps(origin, ensure_ascii=False)
    return summary


def _update(card: Card, item: ImportedCard, now: datetime) -> bool:
    """Put an imported card's text into an existing card (its scheduling stays); True if changed.

    A card of another source that takes the text (keep-newest) keeps its own tags and records
    the imported key ("import_key"), so importing the deck again updates it in place.
    """
    own = card.key in (item.key, item.alt_key)
    fields = ("q_en", "a_en", "q_zh", "a_zh") + (("tags",) if own else ())
    origin = card_origin(card)
    carries = None if own else item.key
    origin_changed = origin.get("import_key") != carries
    if not origin_changed and all(getattr(card, f) == getattr(item, f) for f in fields):
        return False
    for f in fields:
        setattr(card, f, getattr(item, f))
    if origin_changed:
        if carries is None:
            origin.pop("import_key", None)
        else:
            origin["import_key"] = carries
        card.origin = json.dumps(origin, ensure_ascii=False)
    card.modified_at = now
    return True


__all__ = ["CardPlan", "ImportedCard", "AnkiReview", "AnkiFileProblem", "LimitExceeded", "LimitHit", "Limits", "CardDuplicate",
           "plan_cards", "plan_package", "apply_cards", "extract_entry", "find_card_duplicates", "field_refs",
           "html_to_text", "text_to_html", "split_language", "same_question", "guid_key", "HISTORY_CHOICES",
           "DUPLICATE_CHOICES", "OWN_FIELDS"]
