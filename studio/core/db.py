"""Opening the SQLite database safely.

Every connection gets the same pragmas (WAL, foreign keys, NORMAL sync, a busy
timeout). Opening checks, in this order:

1. the file: missing, empty or cut short where a collection existed before (a state file
   beside it, or a backup, says so) is a damaged database, never a new one;
2. its integrity (`PRAGMA quick_check`, read-only) on the first open of each day and after
   any session that did not close cleanly (a marker file left by a dead process);
3. the schema revision: a new file is created and stamped at head, an older one is backed
   up and migrated with Alembic, a newer one is refused.

A problem raises a `DatabaseProblem` whose message a user can act on; nothing here ever
writes to a damaged file. `open_database(..., read_only=True)` opens a file for reading
only (the choice offered for a damaged one). Backups, restore and salvage live in
`studio.core.backups`.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import DatabaseError as SADatabaseError
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from studio.core import dbcheck
from studio.core.dbstate import DbState, clear_markers, set_marker, stale_markers
from studio.core.models import CHANGE_LOG_DDL, CHANGE_LOG_TABLE, FTS_DDL, FTS_TABLES, QUEUE_INDEXES, Base

log = logging.getLogger(__name__)

HEAD_REVISION = "0005"
KNOWN_REVISIONS = ("0001", "0002", "0003", "0004", "0005")
HAND_MADE_INDEXES = ("ix_cards_queue_new", "ix_cards_queue_studied", "ix_review_log_day", "ix_cards_browse")
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


class DatabaseProblem(Exception):
    """A database the app cannot use as it is; `str(self)` is shown to the user."""

    kind = "problem"

    def __init__(self, path: Path, detail: str):
        self.path = path
        self.detail = detail
        super().__init__(f"{self.summary()}\n\n{path}\n\n{detail}")

    def summary(self) -> str:
        return "The database cannot be opened."


class DatabaseLocked(DatabaseProblem):
    kind = "locked"

    def summary(self) -> str:
        return "The database is locked by another program (is ML Infra Studio already running?)."


class DatabaseCorrupt(DatabaseProblem):
    kind = "corrupt"

    def summary(self) -> str:
        return "The database file is damaged or is not a database."


class DatabaseTooNew(DatabaseProblem):
    kind = "too_new"

    def summary(self) -> str:
        return "The database was written by a newer version of ML Infra Studio."


class DatabaseMissing(DatabaseCorrupt):
    """The file is gone or empty where a collection existed: damaged, not new."""

    kind = "missing"

    def summary(self) -> str:
        return "The database file is missing or empty, but a collection existed here."


class DatabaseReadOnly(DatabaseProblem):
    kind = "read_only"

    def summary(self) -> str:
        return "The database or its folder cannot be written (read-only or no permission)."


def include_name(name, type_, parent_names) -> bool:
    """Alembic filter: keep hand-made objects (FTS5 tables, partial indexes) out of autogenerate."""
    if type_ == "table":
        if name == CHANGE_LOG_TABLE:
            return False
        return not any(name == t or name.startswith(t + "_") for t in FTS_TABLES)
    if type_ == "index":
        return name not in HAND_MADE_INDEXES
    return True


def _set_pragmas(busy_timeout_ms: int, read_only: bool = False, autocheckpoint: bool = True):
    def on_connect(dbapi_conn, _record) -> None:
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        if read_only:
            cur.execute("PRAGMA query_only=ON")
        else:
            cur.execute("PRAGMA journal_mode=WAL")
            if not autocheckpoint:      # a WalCheckpointer does it on its own thread
                cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    return on_connect


def make_engine(path: Path, busy_timeout_ms: int = 5000, read_only: bool = False,
                autocheckpoint: bool = True) -> Engine:
    if read_only:
        engine = create_engine(
            f"sqlite:///{path}",
            creator=lambda: dbcheck.connect_read_only(path, busy_timeout_ms / 1000),
        )
    else:
        engine = create_engine(
            f"sqlite:///{path}",
            connect_args={"timeout": busy_timeout_ms / 1000, "check_same_thread": False},
        )
    event.listen(engine, "connect", _set_pragmas(busy_timeout_ms, read_only, autocheckpoint))
    return engine


class WalCheckpointer:
    """WAL checkpoints on a thread of their own, off the path of the commit that crosses the
    threshold.

    With SQLite's automatic checkpoint (every 1000 WAL pages) the commit that crosses the
    threshold copies the log back into the database file: one answer in about 75 took
    6-8 ms instead of 0.5 ms at 20k cards (bench/trainer_scale.py), the whole of the review
    core's p99. Here the engine's connections have `wal_autocheckpoint=0`; every `EVERY`
    commits this thread runs a PASSIVE checkpoint on its own connection (it never blocks
    readers or writers; the sqlite3 module releases the GIL while it runs). Closing the
    database stops the thread first; SQLite's checkpoint on the last close then empties
    and removes the log, as before.
    """

    EVERY = 32                 # commits between checkpoints
    WAL_BYTES = 4 << 20        # or sooner, once the log is this big (a bulk import)

    def __init__(self, path: Path, engine: Engine) -> None:
        self.path = Path(path)
        self.engine = engine
        self.runs = 0                  # checkpoints done (tests, diagnostics)
        self._wal = self.path.with_name(self.path.name + "-wal")
        self._pending = 0
        self._wake = threading.Event()
        self._stopping = False
        event.listen(engine, "commit", self._committed)
        self._thread = threading.Thread(target=self._run, name="sqlite-wal-checkpoint", daemon=True)
        self._thread.start()

    def _committed(self, _conn) -> None:
        self._pending += 1
        if self._pending >= self.EVERY or self._wal_bytes() > self.WAL_BYTES:
            self._pending = 0
            self._wake.set()

    def _wal_bytes(self) -> int:
        try:
            return self._wal.stat().st_size
        except OSError:
            return 0

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(str(self.path), timeout=5.0, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            log.warning("WAL checkpoint thread could not open %s: %s", self.path, exc)
            return
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stopping:
                    return
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.runs += 1
                except sqlite3.Error as exc:      # busy or I/O: the next round tries again
                    log.warning("WAL checkpoint of %s: %s", self.path, exc)
        finally:
            conn.close()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        self._thread.join(timeout=30)
        if event.contains(self.engine, "commit", self._committed):
            event.remove(self.engine, "commit", self._committed)


_KEPT_LOCK = threading.Lock()


class UntilCommit:
    """Values computed from the database and kept until anything commits to it.

    It reads on a connection of its own that never writes: SQLite's `PRAGMA data_version`
    on that connection changes whenever any other connection commits (this process's
    engine, another process, a restore), so a kept value is never older than the data.
    The card browser keeps the display order of all cards here: at 20k cards that order
    costs half of a search for a common word (bench/trainer_scale.py).
    """

    SLOTS = 4

    def __init__(self, path: Path, timeout_s: float = 5.0) -> None:
        self.path = Path(path)
        self.timeout_s = timeout_s
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._kept: dict[Any, tuple[int, Any]] = {}
        self._patchable: set[Any] = set()
        self.computed = 0            # values computed (tests, diagnostics)
        self.patched = 0             # values brought up to date by their patch

    def get(self, key: Any, compute: Callable[[], Any],
            patch: Callable[[Any], Any] | None = None) -> Any:
        """The value kept for `key` while nothing has committed since; else compute(), kept
        and returned. With `patch`, a value kept from before the commit is first offered to
        patch(old), which returns the value brought up to date, or None to compute afresh.

        compute() and patch() may read on any connection (the engine's, whose page cache is
        warm): the version is read first, so a commit landing while they run makes the next
        call look again, and a kept value is never older than the version it is kept under."""
        with self._lock:
            if self._conn is None:
                self._conn = dbcheck.connect_read_only(self.path, self.timeout_s)
            version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            kept = self._kept.get(key)
            if kept is not None and kept[0] == version:
                return kept[1]
            value = patch(kept[1]) if kept is not None and patch is not None else None
            if value is not None:
                self.patched += 1
            else:
                value = compute()
                self.computed += 1
            if patch is not None:
                self._patchable.add(key)
            # values of older versions go, except those a patch can bring up to date
            self._kept = {k: v for k, v in self._kept.items() if v[0] == version or k in self._patchable}
            if len(self._kept) >= self.SLOTS:
                self._kept.pop(next(iter(self._kept)))
            self._kept[key] = (version, value)
            return value

    def close(self) -> None:
        with self._lock:
            self._kept.clear()
            if self._conn is not None:
                self._conn.close()
                self._conn = None


@dataclass
class Database:
    """An open, migrated database: its engine and a session factory."""

    path: Path
    engine: Engine
    sessions: sessionmaker[Session]
    read_only: bool = False
    check: dbcheck.CheckResult | None = None  # the check run on this open, if any
    marker: Path | None = field(default=None, repr=False)
    checkpointer: WalCheckpointer | None = field(default=None, repr=False)
    until_commit: UntilCommit | None = field(default=None, repr=False)

    def session(self) -> Session:
        return self.sessions()

    def kept(self) -> UntilCommit:
        """Values derived from the data, kept until the next commit (see UntilCommit)."""
        with _KEPT_LOCK:
            if self.until_commit is None:
                self.until_commit = UntilCommit(self.path)
            return self.until_commit

    def close(self) -> None:
        """Close every connection; then the clean-shutdown marker goes."""
        if self.until_commit is not None:      # a reader: closed before the engine's last close
            self.until_commit.close()
            self.until_commit = None
        if self.checkpointer is not None:
            self.checkpointer.stop()
            self.checkpointer = None
        self.engine.dispose()
        if self.marker is not None:
            self.marker.unlink(missing_ok=True)
            self.marker = None


def create_schema(conn) -> None:
    """Create every table, index and FTS table of the current schema."""
    Base.metadata.create_all(conn)
    for ddl in FTS_DDL + QUEUE_INDEXES + CHANGE_LOG_DDL:
        conn.exec_driver_sql(ddl)


def _revision(conn) -> str | None:
    tables = {
        row[0] for row in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")
    }
    if "alembic_version" not in tables:
        return None if not tables else "unversioned"
    row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
    return row[0] if row else "unversioned"


def _classify(path: Path, exc: Exception) -> DatabaseProblem:
    msg = str(getattr(exc, "orig", exc))
    if "locked" in msg or "busy" in msg:
        return DatabaseLocked(path, msg)
    if "readonly" in msg or "read-only" in msg or "unable to open" in msg or "permission" in msg.lower():
        return DatabaseReadOnly(path, msg)
    return DatabaseCorrupt(path, msg)


def collection_existed(path: Path, backups: Path | None) -> bool:
    """Whether a collection was kept at `path` before (the state file or a backup says so)."""
    if DbState.load(path).exists:
        return True
    return backups is not None and backups.is_dir() and any(backups.glob("studio-*.sqlite3"))


def check_needed(path: Path, today: date | None = None) -> bool:
    """First open of the day, or the last session did not close cleanly."""
    return bool(stale_markers(path)) or not DbState.load(path).checked_today(today)


def create_fresh(path: Path) -> None:
    """A new, empty database at head (used for new collections and salvage targets)."""
    engine = make_engine(path)
    try:
        with engine.begin() as conn:
            create_schema(conn)
            conn.exec_driver_sql("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
            conn.execute(text("INSERT INTO alembic_version VALUES (:r)"), {"r": HEAD_REVISION})
    finally:
        engine.dispose()


def open_database(path: Path, backups: Path | None = None, busy_timeout_ms: int = 5000,
                  read_only: bool = False, check: bool | None = None, start_over: bool = False) -> Database:
    """Open (creating or migrating as needed) the database at `path`.

    `check`: None runs the integrity check when `check_needed` (never for a read-only
    open, the choice made after a failed check); True always; False never.
    `start_over`: create a new collection even where one existed (the user chose to).
    """
    path = Path(path)
    if read_only and check is None:
        check = False
    empty = not path.exists() or path.stat().st_size == 0
    if empty:
        if collection_existed(path, backups) and not start_over:
            what = "is missing" if not path.exists() else "is empty (0 bytes)"
            raise DatabaseMissing(path, f"the file {what}; the backups or the state file "
                                        f"({path.name}.state.json) say a collection was kept here")
        if read_only:
            raise DatabaseMissing(path, "there is no database to open read-only")
    result = None
    if not empty and (check or (check is None and check_needed(path))):
        result = dbcheck.run_check(path)
        if result.blocked:
            raise _classify(path, Exception(result.blocked))
        if not result.finished:
            log.warning("integrity check of %s stopped at its %.0f s budget; it runs again next open",
                        path, dbcheck.CHECK_BUDGET_S)
        elif not result.ok:
            log.error("integrity check of %s failed: %s", path, result.problems)
            raise DatabaseCorrupt(path, "the integrity check found: " + result.summary())
    elif not empty:
        problem = dbcheck.header_problem(path)
        if problem:
            raise DatabaseCorrupt(path, problem)
    engine = make_engine(path, busy_timeout_ms, read_only, autocheckpoint=read_only)
    try:
        with engine.begin() as conn:
            revision = _revision(conn)
            if revision is None and not read_only:
                create_schema(conn)
                conn.exec_driver_sql("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
                conn.execute(text("INSERT INTO alembic_version VALUES (:r)"), {"r": HEAD_REVISION})
                log.info("created new database at %s", path)
                revision = HEAD_REVISION
    except (OperationalError, SADatabaseError, sqlite3.DatabaseError) as exc:
        engine.dispose()
        raise _classify(path, exc) from exc
    if revision != HEAD_REVISION:
        if revision not in KNOWN_REVISIONS:
            engine.dispose()
            raise DatabaseTooNew(path, f"schema revision {revision!r}; this version knows up to {HEAD_REVISION!r}")
        if read_only:
            engine.dispose()
            raise DatabaseProblem(path, f"schema revision {revision!r} needs an upgrade, which cannot be done read-only")
        if backups is not None:
            from studio.core.backups import BackupFailed, make_backup

            try:
                make_backup(path, backups, reason="pre-migration")
            except BackupFailed as exc:
                engine.dispose()
                raise DatabaseCorrupt(path, str(exc)) from exc
        _upgrade(engine)
    database = Database(path, engine, sessionmaker(engine, expire_on_commit=False), read_only, result)
    if not read_only:
        database.checkpointer = WalCheckpointer(path, engine)
        clear_markers(stale_markers(path))
        database.marker = set_marker(path)
        state = DbState.load(path)
        state.exists = True
        if empty or (result is not None and result.finished):  # a new file needs no check today
            state.last_check = date.today().isoformat()
        state.save(path)
    return database


def _upgrade(engine: Engine) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


__all__ = [
    "Database",
    "DatabaseProblem",
    "DatabaseLocked",
    "DatabaseCorrupt",
    "DatabaseTooNew",
    "DatabaseMissing",
    "DatabaseReadOnly",
    "FTS_TABLES",
    "HEAD_REVISION",
    "open_database",
    "create_fresh",
]
