"""Reviews done in Anki (on the phone) brought back to this app's cards.

The user exports cards to an .apkg (studio.core.exporters), imports it into Anki, reviews
there (AnkiDroid, AnkiMobile, desktop), then exports a deck with scheduling (.apkg) or a
collection backup (.colpkg) and imports it here. Each Anki card is matched to ours by its
note's GUID (our card key) and template number; its review log entries are added to our log
in time order, skipping those already here (the ones the export carried, and any imported
before: importing the same file twice adds nothing); then each card that gained reviews has
its FSRS state recomputed by replaying its whole merged log through the scheduler, and the
log rows' derived columns (state before/after, stability, elapsed days) with it. The same
card reviewed on both sides on one day keeps both reviews, in time order.

Everything is written in one transaction, and only when the file was read to the end: a
corrupt or truncated file, a deck from another tool (no GUID matches), a deck exported
without its review log, changes nothing and says why.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from fsrs import Card as FsrsCard
from fsrs import Rating, State
from sqlalchemy import select

from studio.core.collection import Collection, utcnow
from studio.core.importers.anki import (_int, _int_in, _legacy_note_types, _moment, _new_note_types,
                                        _open_collection_file, _text)
from studio.core.importers.anki_limits import MB, AnkiFileProblem, Deadline, Limits
from studio.core.models import Card, ReviewLog, ReviewUndo
from studio.core.review import make_scheduler

SAME_REVIEW = timedelta(seconds=1)  # a logged answer this close, with the same grade, is the same answer
_SHOWN_UNMATCHED = 5


@dataclass
class CardReviews:
    card_id: int
    key: str
    question: str
    added: int


@dataclass
class ReviewImportSummary:
    """What an import of Anki reviews did, or why it did nothing."""

    source: Path
    completed: bool = False  # True once the transaction committed (even when nothing was new)
    notes_in_file: int = 0
    matched_notes: int = 0
    unmatched_notes: int = 0
    unmatched_examples: list[str] = field(default_factory=list)
    reviews_in_file: int = 0
    reviews_added: int = 0
    already_here: int = 0
    cards: list[CardReviews] = field(default_factory=list)  # cards that gained reviews
    problems: list[str] = field(default_factory=list)

    def headline(self) -> str:
        if not self.completed:
            return f"{self.source}: nothing imported"
        return (f"{self.reviews_added} review{'s' if self.reviews_added != 1 else ''} came back for "
                f"{len(self.cards)} card{'s' if len(self.cards) != 1 else ''} "
                f"({self.already_here} already here)")

    def lines(self) -> list[str]:
        out = [self.headline()]
        out += [f"card: {c.question[:70]} (+{c.added})" for c in self.cards]
        if self.unmatched_notes:
            out.append(f"unmatched: {self.unmatched_notes} note{'s' if self.unmatched_notes != 1 else ''} "
                       f"in the file match no card here (GUIDs {', '.join(self.unmatched_examples)}"
                       f"{', ...' if self.unmatched_notes > len(self.unmatched_examples) else ''}); "
                       "their reviews are left out")
        return out + [f"problem: {p}" for p in self.problems]

    def to_json(self) -> dict:
        return {"completed": self.completed, "notes_in_file": self.notes_in_file,
                "matched_notes": self.matched_notes, "unmatched_notes": self.unmatched_notes,
                "reviews_in_file": self.reviews_in_file, "reviews_added": self.reviews_added,
                "already_here": self.already_here,
                "cards": [{"id": c.card_id, "key": c.key, "question": c.question, "added": c.added}
                          for c in self.cards], "problems": list(self.problems)}


@dataclass
class _Incoming:
    at: datetime  # naive UTC
    rating: int
    duration_ms: int | None


def _candidate_keys(guid: str, ord_: int, cloze: bool) -> list[str]:
    suffix = f"#c{ord_ + 1}" if cloze else (f"#{ord_}" if ord_ else "")
    return [guid + suffix, f"anki:{guid}{suffix}"]


def _read(db: sqlite3.Connection, summary: ReviewImportSummary, deadline: Deadline):
    """{(guid, ord, cloze): [reviews]}, every note GUID and every (guid, ord, cloze) card in the file."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    missing = {"notes", "cards", "revlog"} - tables
    if missing:
        raise AnkiFileProblem(f"not an Anki collection (no {', '.join(sorted(missing))} table)")
    note_types = _new_note_types(db, deadline) if "notetypes" in tables else _legacy_note_types(db, deadline)
    latest = utcnow() + timedelta(days=1)
    notes: dict[int, tuple[str, bool]] = {}
    for nid, guid, mid in db.execute("SELECT id, guid, mid FROM notes"):
        deadline.check(f"{len(notes)} notes read")
        nid_int, guid = _int(nid), _text(guid).strip()
        if nid_int is None or not guid:
            continue
        nt = note_types.get(_int(mid))
        notes[nid_int] = (guid, bool(nt and nt.cloze))
    cards: dict[int, tuple[str, int, bool]] = {}
    for cid, nid, ord_raw in db.execute("SELECT id, nid, ord FROM cards"):
        cid_int, nid_int, ord_ = _int(cid), _int(nid), _int_in(ord_raw, 0, 9999)
        if cid_int is None or ord_ is None or nid_int not in notes:
            continue
        guid, cloze = notes[nid_int]
        cards[cid_int] = (guid, ord_, cloze)
    by_card: dict[tuple[str, int, bool], list[_Incoming]] = {}
    bad = 0
    for n, (rid, cid, ease, rtype, ms) in enumerate(db.execute("SELECT id, cid, ease, type, time FROM revlog")):
        if n % 1024 == 0:
            deadline.check(f"{n} reviews read")
        ease_int, type_int = _int(ease), _int(rtype)
        if ease_int == 0 or type_int in (4, 5):
            continue  # manual rescheduling or "set due date": not an answer
        summary.reviews_in_file += 1
        at = _moment(_int(rid), latest)
        where = cards.get(_int(cid))
        if at is None or ease_int not in (1, 2, 3, 4) or where is None:
            bad += 1
            continue
        by_card.setdefault(where, []).append(_Incoming(at, ease_int, _int_in(ms, 1, 86_400_000)))
    if bad:
        summary.problems.append(f"{bad} review{'s' if bad != 1 else ''} in the file with an impossible time or "
                                "grade, or of a card that is not in the file, left out")
    return by_card, sorted({g for g, _ in notes.values()}), set(cards.values())


def import_reviews(col: Collection, path: Path, limits: Limits | None = None) -> ReviewImportSummary:
    """Add the review log entries of an Anki .apkg/.colpkg to the matching cards (see the module doc)."""
    path = Path(path)
    summary = ReviewImportSummary(path)
    if not path.is_file():
        summary.problems.append(f"{path}: no such file")
        return summary
    limits = limits or Limits()
    deadline = Deadline(limits)
    try:
        with tempfile.TemporaryDirectory(prefix="studio-reviews-") as tmp:
            db_path = _open_collection_file(path, Path(tmp), limits, deadline)
            db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
            db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(db.getlimit(sqlite3.SQLITE_LIMIT_LENGTH),
                                                         max(1, int(limits.max_entry_mb * MB))))
            db.set_progress_handler(deadline.expired, 10_000)
            try:
                by_card, guids, cards_in_file = _read(db, summary, deadline)
            finally:
                db.close()
    except AnkiFileProblem as exc:
        summary.problems.append(f"{path}: {exc}; nothing imported{exc.hint and ' (' + exc.hint + ')'}")
        return summary
    except sqlite3.DatabaseError as exc:
        why = "reading took too long" if deadline.expired() else f"the collection inside is damaged ({exc})"
        summary.problems.append(f"{path}: {why}; nothing imported")
        return summary
    except (ValueError, KeyError, TypeError, RecursionError, OSError) as exc:
        summary.problems.append(f"{path}: cannot read this file ({type(exc).__name__}: {exc}); nothing imported")
        return summary
    summary.notes_in_file = len(guids)
    if not guids:
        summary.problems.append(f"{path}: the file holds no notes; nothing imported")
        return summary
    try:
        _merge(col, summary, by_card, guids, cards_in_file)
    except _NothingToDo:
        pass  # rolled back; the summary says why
    return summary


def _merge(col: Collection, summary: ReviewImportSummary, by_card, guids: list[str],
           cards_in_file: set) -> None:
    scheduler = make_scheduler(col)
    with col.db.session() as s, s.begin():
        keys: dict[str, Card] = {}  # our card key -> Card, for every card of the file found here
        wanted = sorted({k for where in cards_in_file for k in _candidate_keys(*where)})
        for i in range(0, len(wanted), 500):
            for card in s.scalars(select(Card).where(Card.key.in_(wanted[i:i + 500]))):
                keys[card.key] = card
        matched_guids = {g for (g, o, c) in cards_in_file if any(k in keys for k in _candidate_keys(g, o, c))}
        unmatched = [g for g in guids if g not in matched_guids]
        summary.matched_notes = len(guids) - len(unmatched)
        summary.unmatched_notes = len(unmatched)
        summary.unmatched_examples = unmatched[:_SHOWN_UNMATCHED]
        if not summary.matched_notes:
            summary.problems.append(
                f"{summary.source}: none of its {len(guids)} notes came from this app (no GUID matches a card "
                "here), so there is no review to bring back; nothing imported. To add its cards, use "
                "Import > Anki deck instead.")
            raise _NothingToDo
        if not summary.reviews_in_file:
            summary.problems.append(
                f"{summary.source}: the file holds no review log, so no review came back. In Anki, export "
                "with 'Include scheduling information' ticked (or export a collection backup, .colpkg).")
            raise _NothingToDo
        undone = select(ReviewUndo.review_id)
        for where, incoming in by_card.items():
            card = next((keys[k] for k in _candidate_keys(*where) if k in keys), None)
            if card is None:
                continue
            logs = list(s.scalars(select(ReviewLog).where(ReviewLog.card_id == card.id, ReviewLog.id.not_in(undone))))
            # Each answer already here stands for at most one answer of the file (two real answers
            # within a second of each other stay two).
            known = sorted(((log.reviewed_at, log.rating) for log in logs), key=lambda k: k[0])
            added = 0
            for review in sorted(incoming, key=lambda r: r.at):
                same = next((i for i, (at, rating) in enumerate(known)
                             if rating == review.rating and abs(at - review.at) <= SAME_REVIEW), None)
                if same is not None:
                    del known[same]
                    summary.already_here += 1
                    continue
                row = ReviewLog(card_id=card.id, rating=review.rating, reviewed_at=review.at,
                                duration_ms=review.duration_ms, mode="review", state_before="{}",
                                state_after=card.fsrs_state)
                s.add(row)
                logs.append(row)
                added += 1
            if added:
                _replay(card, logs, scheduler)
                summary.reviews_added += added
                summary.cards.append(CardReviews(card.id, card.key, card.q_en or card.q_zh, added))
        summary.cards.sort(key=lambda c: (-c.added, c.question))
    summary.completed = True


class _NothingToDo(Exception):
    """Raised inside the transaction so it rolls back; the summary already says why."""


def _snapshot(fc: FsrsCard, reps: int, lapses: int) -> str:
    naive = (lambda dt: None if dt is None else dt.astimezone(timezone.utc).replace(tzinfo=None).isoformat())
    return json.dumps({"fsrs_state": fc.state.value, "fsrs_step": fc.step, "stability": fc.stability,
                       "difficulty": fc.difficulty, "due": naive(fc.due), "last_review": naive(fc.last_review),
                       "reps": reps, "lapses": lapses})


def _replay(card: Card, logs: list[ReviewLog], scheduler) -> None:
    """The card's FSRS state from its whole log, answer by answer in time order."""
    logs.sort(key=lambda log: (log.reviewed_at, log.id or 0))
    fc = FsrsCard(card_id=card.id, due=logs[0].reviewed_at.replace(tzinfo=timezone.utc))
    reps = lapses = 0
    last: datetime | None = None
    for n, log in enumerate(logs):
        was_review = fc.state == State.Review
        log.state_before = _snapshot(fc, reps, lapses)
        fc, _ = scheduler.review_card(fc, Rating(log.rating), log.reviewed_at.replace(tzinfo=timezone.utc))
        reps += 1
        if log.rating == 1 and was_review:
            lapses += 1
        log.state_after, log.stability_after, log.was_new = fc.state.value, fc.stability, n == 0
        log.elapsed_days = None if last is None else (log.reviewed_at - last).total_seconds() / 86400
        last = log.reviewed_at
    card.fsrs_state, card.fsrs_step = fc.state.value, fc.step
    card.stability, card.difficulty = fc.stability, fc.difficulty
    card.due = fc.due.astimezone(timezone.utc).replace(tzinfo=None)
    card.last_review = fc.last_review.astimezone(timezone.utc).replace(tzinfo=None)
    card.reps, card.lapses = reps, lapses


__all__ = ["import_reviews", "ReviewImportSummary", "CardReviews", "SAME_REVIEW"]
