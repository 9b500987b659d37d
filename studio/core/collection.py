"""The user's collection: one object a script or the GUI drives.

It owns the open database and the loaded content, and offers the operations every
pane needs (counts, roadmap progress, settings, syncing shipped content into the
database). Like Anki's collection it has no Qt in it; the GUI calls it from its single
database worker thread.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import func, select

from studio import paths
from studio.core.backups import BackupInfo, backup_if_first_today
from studio.core.db import Database, open_database
from studio.core.decks import Deck, DeckProblem, load_decks
from studio.core.models import (
    Card,
    DrillAttempt,
    Interview,
    NodeProgress,
    Note,
    ReviewLog,
    ReviewUndo,
    Setting,
)
from studio.core.roadmap import STATES, Roadmap, RoadmapError, load_roadmap

log = logging.getLogger(__name__)


def utcnow() -> datetime:
    """Naive UTC 'now' as stored in the database (SQLite keeps no time zone)."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


@dataclass
class ContentStatus:
    """What loading shipped content found: problems are shown in the panes."""

    roadmap_error: str = ""
    deck_problems: list[DeckProblem] | None = None


class Collection:
    """An open collection: database plus shipped content."""

    def __init__(self, db: Database, content_dir: Path | None = None):
        self.db = db
        self.content_dir = content_dir or paths.content_dir()
        self._roadmap: Roadmap | None = None
        self.status = ContentStatus()

    @classmethod
    def open(cls, db_path: Path | None = None, busy_timeout_ms: int = 5000, read_only: bool = False,
             start_over: bool = False) -> Collection:
        db_path = db_path or paths.database_path()
        db = open_database(db_path, backups=paths.backups_dir(), busy_timeout_ms=busy_timeout_ms,
                           read_only=read_only, start_over=start_over)
        return cls(db)

    @property
    def read_only(self) -> bool:
        return self.db.read_only

    def close(self) -> None:
        self.db.close()

    def daily_backup(self) -> BackupInfo | None:
        """Today's verified copy (none when read-only); raises BackupFailed if the copy is damaged."""
        if self.read_only:
            return None
        return backup_if_first_today(self.db.path, paths.backups_dir())

    # ----- content -------------------------------------------------------------------
    @property
    def roadmap(self) -> Roadmap | None:
        if self._roadmap is None and not self.status.roadmap_error:
            try:
                self._roadmap = load_roadmap(self.content_dir / "roadmap.yaml")
            except RoadmapError as exc:
                self.status.roadmap_error = str(exc)
                log.warning("roadmap: %s", exc)
        return self._roadmap

    def load_decks(self) -> list[Deck]:
        decks, problems = load_decks(self.content_dir / "decks")
        self.status.deck_problems = problems
        for problem in problems:
            log.warning("deck: %s", problem)
        return decks

    def _content_fingerprint(self) -> str:
        digest = hashlib.sha1()
        for path in sorted((self.content_dir / "decks").glob("*.md")):
            st = path.stat()
            digest.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns}".encode())
        return digest.hexdigest()

    def sync_shipped_cards(self, force: bool = False) -> int:
        """Bring shipped deck cards into the database, keyed by their stable ids.

        Text, node and tags follow the files; scheduling is never touched. Cards whose
        id left the content are retired (kept, with their history, but not shown).
        Returns the number of cards inserted or changed.
        """
        if self.read_only:
            return 0
        fingerprint = self._content_fingerprint()
        if not force and self.get_setting("content.decks_fingerprint") == fingerprint:
            return 0
        decks = self.load_decks()
        deleted = set(self.get_setting("content.deleted_keys", []) or [])
        now = utcnow()
        changed = 0
        with self.db.session() as s, s.begin():
            existing = {c.key: c for c in s.scalars(select(Card).where(Card.source == "shipped"))}
            seen: set[str] = set()
            for deck in decks:
                for dc in deck.cards:
                    for key, ordinal in dc.review_keys():
                        seen.add(key)
                        if key in deleted:
                            continue
                        values = dict(
                            deck=dc.deck, node_id=dc.node, tags=" ".join(dc.tags), kind=dc.kind,
                            cloze_ord=ordinal, level=dc.level, q_en=dc.q_en, a_en=dc.a_en,
                            q_zh=dc.q_zh, a_zh=dc.a_zh, retired=False,
                        )
                        card = existing.get(key)
                        if card is None:
                            s.add(Card(key=key, source="shipped", created_at=now, modified_at=now, due=now, **values))
                            changed += 1
                        elif any(getattr(card, k) != v for k, v in values.items()):
                            for k, v in values.items():
                                setattr(card, k, v)
                            card.modified_at = now
                            changed += 1
            for key, card in existing.items():
                if key not in seen and not card.retired:
                    card.retired = True
                    changed += 1
            s.merge(Setting(key="content.decks_fingerprint", value=json.dumps(fingerprint)))
        return changed

    def index_shipped_notes(self) -> int:
        """Index content/notes/*.md (title, node, language, body) for search."""
        from studio.core.frontmatter import split_front_matter

        if self.read_only:
            return 0
        folder = self.content_dir / "notes"
        files = sorted(folder.glob("*.md")) if folder.is_dir() else []
        count = 0
        with self.db.session() as s, s.begin():
            known = {n.path: n for n in s.scalars(select(Note).where(Note.source == "shipped"))}
            for path in files:
                st = path.stat()
                note = known.pop(str(path), None)
                if note is not None and note.mtime == st.st_mtime and note.size == st.st_size:
                    continue
                try:
                    text = path.read_text(encoding="utf-8-sig")
                except (OSError, UnicodeDecodeError) as exc:
                    log.warning("note %s: %s", path, exc)
                    continue
                fm, body = split_front_matter(text)
                stem, _, lang = path.stem.rpartition(".")
                if note is None:
                    note = Note(path=str(path), source="shipped")
                    s.add(note)
                note.title = fm.title or stem
                note.node_id = fm.node or stem
                note.lang = lang if lang in ("en", "zh") else None
                note.tags = " ".join(fm.tags)
                note.body = body
                note.mtime = st.st_mtime
                note.size = st.st_size
                count += 1
            for gone in known.values():
                s.delete(gone)
        return count

    # ----- settings ------------------------------------------------------------------
    def get_setting(self, key: str, default=None):
        with self.db.session() as s:
            row = s.get(Setting, key)
            return json.loads(row.value) if row is not None else default

    def set_setting(self, key: str, value) -> None:
        with self.db.session() as s, s.begin():
            s.merge(Setting(key=key, value=json.dumps(value)))

    # ----- roadmap progress ----------------------------------------------------------
    def node_states(self) -> dict[str, str]:
        with self.db.session() as s:
            return {p.node_id: p.state for p in s.scalars(select(NodeProgress))}

    def set_node_state(self, node_id: str, state: str) -> None:
        if state not in STATES:
            raise ValueError(f"unknown state {state!r}; expected one of {', '.join(STATES)}")
        with self.db.session() as s, s.begin():
            s.merge(NodeProgress(node_id=node_id, state=state, updated_at=utcnow()))

    # ----- counts --------------------------------------------------------------------
    def end_of_today(self, now: datetime | None = None) -> datetime:
        """UTC end of the user's local day: cards due before it count as due today."""
        local = (now or datetime.now(timezone.utc)).astimezone()
        end_local = (local + timedelta(days=1)).replace(hour=4, minute=0, second=0, microsecond=0)
        if local.hour < 4:
            end_local -= timedelta(days=1)
        return end_local.astimezone(timezone.utc).replace(tzinfo=None)

    def _active_cards(self):
        return select(Card).where(Card.retired.is_(False), Card.suspended.is_(False))

    def due_count(self, now: datetime | None = None) -> int:
        """Cards already reviewed once and due before the end of today (new cards excluded)."""
        cutoff = self.end_of_today(now)
        with self.db.session() as s:
            q = select(func.count()).select_from(
                self._active_cards().where(Card.last_review.is_not(None), Card.due < cutoff).subquery()
            )
            return int(s.scalar(q) or 0)

    def counts(self) -> dict[str, int]:
        """The integer counts `studio stats --json` prints."""
        with self.db.session() as s:
            undone = select(ReviewUndo.review_id)
            return {
                "notes": int(s.scalar(select(func.count(Note.id))) or 0),
                "cards": int(s.scalar(select(func.count(Card.id)).where(Card.retired.is_(False))) or 0),
                "due": self.due_count(),
                "reviews": int(s.scalar(select(func.count(ReviewLog.id)).where(ReviewLog.id.not_in(undone))) or 0),
                "interviews": int(s.scalar(select(func.count(Interview.id)).where(Interview.deleted_at.is_(None))) or 0),
                "drill_attempts": int(s.scalar(select(func.count(DrillAttempt.id))) or 0),
            }

