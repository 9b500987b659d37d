"""Importing Anki decks: .apkg packages (collection.anki2 / .anki21 / zstd .anki21b) and cards
read from Anki's CSV/TSV text export, into this app's cards.

Two steps like the notes importer, so the GUI can preview: `plan_cards(path)` reads a file and
lists the cards it holds (with every problem, named by file and line or note) without writing;
`apply_cards` writes the selected ones. Every Anki card gets a stable key, "anki:<guid>" (with
"#<ord>" for a note's second template, "#c<n>" for cloze deletions), so importing the same deck
again updates text in place and keeps scheduling. Review history is either replayed through
the FSRS scheduler (each revlog answer at its own time, so state and due match what FSRS would
have given) or dropped so the cards start as new: the user chooses.
"""

from __future__ import annotations

import html
import json
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
from sqlalchemy import select

from studio.core.collection import Collection, utcnow
from studio.core.importers.notes_import import ImportSummary
from studio.core.models import Card, ReviewLog

_CJK = re.compile(r"[\u4e00-\u9fff]")
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>|<!--.*?-->", re.S)
_PRE = re.compile(r"<pre\b[^>]*>(.*?)</pre>", re.S | re.I)
_FIELD_REF = re.compile(r"{{\s*[#^/]?\s*(?:[a-zA-Z-]+:)*([^}#^/][^}]*?)\s*}}")
# This app's own export note type names its fields so bilingual cards come back whole.
OWN_FIELDS = ("Front", "Back", "Front (zh)", "Back (zh)")
HISTORY_CHOICES = ("keep", "new")


class AnkiFileProblem(ValueError):
    """A package that cannot be read at all; the message says why."""


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

    @property
    def question(self) -> str:
        return self.q_en or self.q_zh


@dataclass
class CardPlan:
    source: Path
    cards: list[ImportedCard] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


# --- text ------------------------------------------------------------------------------
def html_to_text(value: str) -> str:
    """Anki field HTML as Markdown-ish text: <br>/blocks become newlines, <pre> a code fence."""
    def fence(m: re.Match) -> str:
        inner = re.sub(r"<br\s*/?>", "\n", m.group(1), flags=re.I)
        return "\n```\n" + html.unescape(_TAG.sub("", inner)).strip("\n") + "\n```\n"

    text = _PRE.sub(fence, value)
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.I)
    text = re.sub(r"</(div|p|li|h[1-6]|tr)>", "\n", text, flags=re.I)
    text = re.sub(r"<li\b[^>]*>", "- ", text, flags=re.I)
    text = re.sub(r"<img\b[^>]*src=\"?([^\"> ]+)[^>]*>", r"[image: \1]", text, flags=re.I)
    text = _TAG.sub("", text)
    text = html.unescape(text).replace("\xa0", " ")
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def text_to_html(text: str) -> str:
    """The inverse for export: escaped text with <br> for newlines."""
    return html.escape(text, quote=False).replace("\n", "<br>")


def split_language(question: str, answer: str) -> dict[str, str]:
    if _CJK.search(question):
        return {"q_zh": question, "a_zh": answer, "q_en": "", "a_en": ""}
    return {"q_en": question, "a_en": answer, "q_zh": "", "a_zh": ""}


def guid_key(guid: str) -> str:
    return f"anki:{guid}"


# --- packages --------------------------------------------------------------------------
def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        if i >= len(data):
            raise ValueError("truncated varint")
        b = data[i]
        value |= (b & 0x7F) << shift
        i += 1
        if not b & 0x80:
            return value, i
        shift += 7


def _proto_fields(data: bytes) -> dict[int, list]:
    """The top-level fields of a protobuf message (enough for Anki's template/notetype config)."""
    out: dict[int, list] = {}
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


@dataclass
class _NoteType:
    name: str
    fields: list[str]
    templates: list[tuple[str, str]]  # (question format, answer format) by ord
    cloze: bool


def _legacy_note_types(db: sqlite3.Connection) -> dict[int, _NoteType]:
    models = json.loads(db.execute("SELECT models FROM col").fetchone()[0] or "{}")
    out = {}
    for mid, m in models.items():
        fields = [f["name"] for f in sorted(m.get("flds", []), key=lambda f: f.get("ord", 0))]
        tmpls = [(t.get("qfmt", ""), t.get("afmt", "")) for t in sorted(m.get("tmpls", []), key=lambda t: t.get("ord", 0))]
        out[int(mid)] = _NoteType(m.get("name", ""), fields, tmpls, m.get("type", 0) == 1)
    return out


def _new_note_types(db: sqlite3.Connection) -> dict[int, _NoteType]:
    out = {}
    for ntid, name, config in db.execute("SELECT id, name, config FROM notetypes"):
        kind = _proto_fields(config or b"").get(1, [0])[0]
        fields = [r[0] for r in db.execute("SELECT name FROM fields WHERE ntid=? ORDER BY ord", (ntid,))]
        tmpls = []
        for (tconfig,) in db.execute("SELECT config FROM templates WHERE ntid=? ORDER BY ord", (ntid,)):
            proto = _proto_fields(tconfig or b"")
            tmpls.append((proto.get(1, [b""])[0].decode("utf-8", "replace"),
                          proto.get(2, [b""])[0].decode("utf-8", "replace")))
        out[int(ntid)] = _NoteType(name, fields, tmpls, kind == 1 or "cloze" in name.lower())
    return out


def _question_answer(nt: _NoteType | None, values: list[str], ord_: int) -> tuple[str, str]:
    """Which fields a card shows on its front and back, read from its template."""
    named = dict(zip(nt.fields, values)) if nt else {}
    if nt and ord_ < len(nt.templates):
        qfmt, afmt = nt.templates[ord_]
        q_names = [n for n in dict.fromkeys(_FIELD_REF.findall(qfmt)) if n in named]
        a_names = [n for n in dict.fromkeys(_FIELD_REF.findall(afmt)) if n in named and n not in q_names]
        if q_names:
            return ("\n\n".join(named[n] for n in q_names if named[n].strip()),
                    "\n\n".join(named[n] for n in a_names if named[n].strip()))
    first, second = (values + ["", ""])[:2]
    return (second, first) if ord_ == 1 and not (nt and nt.cloze) else (first, "\n\n".join(v for v in values[1:] if v.strip()))


def _open_collection_file(path: Path, workdir: Path) -> Path:
    """Extract the newest collection database in the package into workdir."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            for name in ("collection.anki21b", "collection.anki21", "collection.anki2"):
                if name in names:
                    data = zf.read(name)
                    break
            else:
                raise AnkiFileProblem("no collection.anki21b, collection.anki21 or collection.anki2 inside")
    except zipfile.BadZipFile as exc:
        raise AnkiFileProblem(f"not a valid .apkg (zip) file: {exc}") from exc
    except (zipfile.LargeZipFile, EOFError, OSError, RuntimeError, ValueError) as exc:
        if isinstance(exc, AnkiFileProblem):
            raise
        raise AnkiFileProblem(f"cannot read the package (truncated or damaged?): {exc}") from exc
    except Exception as exc:  # zlib.error and friends from a damaged member
        raise AnkiFileProblem(f"cannot read the package (truncated or damaged?): {exc}") from exc
    if name == "collection.anki21b":
        try:
            import zstandard
        except ImportError as exc:
            raise AnkiFileProblem("this package uses the newer compressed format (collection.anki21b); "
                                  "install the 'zstandard' package to import it") from exc
        try:
            data = zstandard.ZstdDecompressor().stream_reader(data).read()
        except zstandard.ZstdError as exc:
            raise AnkiFileProblem(f"collection.anki21b is damaged: {exc}") from exc
    target = workdir / "collection.sqlite"
    target.write_bytes(data)
    return target


def plan_package(path: Path) -> CardPlan:
    """Cards (with review history) of an .apkg, or the reason it cannot be read."""
    plan = CardPlan(path)
    with tempfile.TemporaryDirectory(prefix="studio-apkg-") as tmp:
        try:
            db_path = _open_collection_file(path, Path(tmp))
            db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
            try:
                _read_collection(db, path, plan)
            finally:
                db.close()
        except AnkiFileProblem as exc:
            plan.problems.append(f"{path}: {exc}; nothing imported")
        except (sqlite3.DatabaseError, ValueError, KeyError, TypeError) as exc:
            plan.cards.clear()
            plan.problems.append(f"{path}: the collection inside is damaged ({exc}); nothing imported")
    return plan


def _read_collection(db: sqlite3.Connection, path: Path, plan: CardPlan) -> None:
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    note_types = _new_note_types(db) if "notetypes" in tables else _legacy_note_types(db)
    crt = int(db.execute("SELECT crt FROM col").fetchone()[0] or 0)
    decks = {}
    if "decks" in tables:
        decks = {int(i): n.replace("\x1f", "::") for i, n in db.execute("SELECT id, name FROM decks")}
    else:
        decks = {int(i): d.get("name", "") for i, d in json.loads(db.execute("SELECT decks FROM col").fetchone()[0] or "{}").items()}
    notes = {}
    for nid, guid, mid, tags, flds in db.execute("SELECT id, guid, mid, tags, flds FROM notes"):
        notes[nid] = (guid, int(mid), (tags or "").strip(), (flds or "").split("\x1f"))
    reviews: dict[int, list[AnkiReview]] = {}
    for rid, cid, ease, rtype, ms in db.execute("SELECT id, cid, ease, type, time FROM revlog ORDER BY id"):
        if 1 <= (ease or 0) <= 4 and rtype in (0, 1, 2, 3):
            at = datetime.fromtimestamp(rid / 1000, timezone.utc).replace(tzinfo=None)
            reviews.setdefault(cid, []).append(AnkiReview(at, int(ease), int(ms) if ms else None))
    rows = db.execute("SELECT id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, data FROM cards "
                      "ORDER BY nid, ord").fetchall()
    for cid, nid, did, ord_, ctype, queue, due, ivl, factor, reps, lapses, data in rows:
        if nid not in notes:
            plan.problems.append(f"{path}: card {cid} belongs to no note; skipped")
            continue
        guid, mid, tags, raw = notes[nid]
        nt = note_types.get(mid)
        values = [html_to_text(v) for v in raw]
        own = nt is not None and tuple(nt.fields[:4]) == OWN_FIELDS and len(values) >= 4
        if own:
            texts = dict(q_en=values[0], a_en=values[1], q_zh=values[2], a_zh=values[3])
        else:
            q, a = _question_answer(nt, values, ord_)
            texts = split_language(q, a)
        cloze = bool(nt and nt.cloze)
        suffix = f"#c{ord_ + 1}" if cloze else (f"#{ord_}" if ord_ else "")
        if not (texts["q_en"] or texts["q_zh"]).strip():
            plan.problems.append(f"{path}: note {guid} card {ord_ + 1} has an empty front; skipped")
            continue
        state = None
        if ctype == 2:
            try:
                extra = json.loads(data) if data else {}
            except ValueError:
                extra = {}
            state = {"ivl": int(ivl or 0), "factor": int(factor or 2500), "due_day": int(due or 0), "crt": crt,
                     "reps": int(reps or 0), "lapses": int(lapses or 0),
                     "s": extra.get("s") if isinstance(extra, dict) else None,
                     "d": extra.get("d") if isinstance(extra, dict) else None}
        plan.cards.append(ImportedCard(
            key=guid_key(guid) + suffix, alt_key=guid + suffix,
            tags=" ".join(t.lower() for t in tags.split()), deck=decks.get(int(did), "")[:100],
            kind="cloze" if cloze else "qa", cloze_ord=ord_ + 1 if cloze else 0,
            origin=json.dumps({"file": str(path), "anki_note": nid, "anki_card": cid}),
            reviews=reviews.get(cid, []), anki_state=state, **texts))
    if not plan.cards and not plan.problems:
        plan.problems.append(f"{path}: the deck holds no cards")


def plan_cards(path: Path) -> CardPlan:
    """Read an Anki package or an Anki-style CSV/TSV file."""
    path = Path(path)
    if not path.is_file():
        return CardPlan(path, problems=[f"{path}: no such file"])
    if path.suffix.lower() in (".apkg", ".colpkg", ".zip"):
        return plan_package(path)
    from studio.core.importers.csv_cards import plan_csv

    return plan_csv(path)


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
    due = datetime.fromtimestamp(state["crt"], timezone.utc).replace(tzinfo=None) + timedelta(days=state["due_day"])
    card.fsrs_state, card.fsrs_step = State.Review.value, None
    card.stability = float(state["s"]) if state.get("s") else float(ivl)
    card.difficulty = float(state["d"]) if state.get("d") else min(10.0, max(1.0, 5.0 + (2500 - state["factor"]) / 200))
    card.due, card.last_review = due, due - timedelta(days=ivl)
    card.reps, card.lapses = state["reps"], state["lapses"]


def apply_cards(col: Collection, plan: CardPlan, history: str = "keep",
                progress: Callable[[int, int], None] | None = None) -> ImportSummary:
    """Write the plan's selected cards in one transaction; existing keys update text only."""
    if history not in HISTORY_CHOICES:
        raise ValueError(f"history must be one of {', '.join(HISTORY_CHOICES)}")
    summary = ImportSummary(problems=list(plan.problems))
    chosen = [c for c in plan.cards if c.selected]
    limits = col.get_setting("review.limits", {}) or {}
    scheduler = Scheduler(desired_retention=float(limits.get("desired_retention", 0.9)), enable_fuzzing=False)
    now = utcnow()
    text_fields = ("q_en", "a_en", "q_zh", "a_zh", "tags")
    with col.db.session() as s, s.begin():
        keys = {c.key for c in chosen} | {c.alt_key for c in chosen if c.alt_key}
        existing: dict[str, Card] = {}
        key_list = sorted(keys)
        for i in range(0, len(key_list), 500):
            existing.update({c.key: c for c in s.scalars(select(Card).where(Card.key.in_(key_list[i:i + 500])))})
        seen: set[str] = set()
        for n, item in enumerate(chosen, start=1):
            if progress and (n % 200 == 0 or n == len(chosen)):
                progress(n, len(chosen))
            card = existing.get(item.alt_key) if item.alt_key else None
            card = card or existing.get(item.key)
            if card is not None:
                if card.key in seen:
                    continue
                seen.add(card.key)
                if any(getattr(card, f) != getattr(item, f) for f in text_fields):
                    for f in text_fields:
                        setattr(card, f, getattr(item, f))
                    card.modified_at = now
                    summary.cards_updated += 1
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
            summary.cards += 1
    return summary


__all__ = ["CardPlan", "ImportedCard", "AnkiReview", "plan_cards", "plan_package", "apply_cards",
           "html_to_text", "text_to_html", "split_language", "guid_key", "HISTORY_CHOICES", "OWN_FIELDS"]
