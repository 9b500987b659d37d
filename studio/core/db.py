"""Opening the SQLite database safely.

Every connection gets the same pragmas (WAL, foreign keys, NORMAL sync, a busy
timeout). Opening checks the schema revision: a new file is created and stamped at
head, an older one is backed up and migrated with Alembic, and a locked, corrupt or
newer-than-us file raises a `DatabaseProblem` whose message a user can act on. Nothing
here ever overwrites the user's file. A copy of the database is kept once a day and
before every migration (the newest `BACKUPS_KEPT`).
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import DatabaseError as SADatabaseError
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from studio.core.models import FTS_DDL, FTS_TABLES, QUEUE_INDEXES, Base

log = logging.getLogger(__name__)

HEAD_REVISION = "0002"
KNOWN_REVISIONS = ("0001", "0002")
BACKUPS_KEPT = 7
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


def include_name(name, type_, parent_names) -> bool:
    """Alembic filter: keep hand-made objects (FTS5 tables, partial indexes) out of autogenerate."""
    if type_ == "table":
        return not any(name == t or name.startswith(t + "_") for t in FTS_TABLES)
    if type_ == "index":
        return name not in HAND_MADE_INDEXES
    return True


def _set_pragmas(busy_timeout_ms: int):
    def on_connect(dbapi_conn, _record) -> None:
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    return on_connect


def make_engine(path: Path, busy_timeout_ms: int = 5000) -> Engine:
    engine = create_engine(
        f"sqlite:///{path}",
        connect_args={"timeout": busy_timeout_ms / 1000, "check_same_thread": False},
    )
    event.listen(engine, "connect", _set_pragmas(busy_timeout_ms))
    return engine


@dataclass
class Database:
    """An open, migrated database: its engine and a session factory."""

    path: Path
    engine: Engine
    sessions: sessionmaker[Session]

    def session(self) -> Session:
        return self.sessions()

    def close(self) -> None:
        self.engine.dispose()


def create_schema(conn) -> None:
    """Create every table, index and FTS table of the current schema."""
    Base.metadata.create_all(conn)
    for ddl in FTS_DDL + QUEUE_INDEXES:
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
    return DatabaseCorrupt(path, msg)


def open_database(path: Path, backups: Path | None = None, busy_timeout_ms: int = 5000) -> Database:
    """Open (creating or migrating as needed) the database at `path`."""
    engine = make_engine(path, busy_timeout_ms)
    try:
        with engine.begin() as conn:
            revision = _revision(conn)
            if revision is None:
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
        if backups is not None:
            backup_database(path, backups, reason="pre-migration")
        _upgrade(engine)
    return Database(path, engine, sessionmaker(engine, expire_on_commit=False))


def _upgrade(engine: Engine) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def backup_database(path: Path, backups: Path, reason: str = "daily", keep: int = BACKUPS_KEPT) -> Path:
    """Copy the database with SQLite's online backup API and keep the newest `keep`."""
    backups.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    target = backups / f"studio-{stamp}-{reason}.sqlite3"
    src = sqlite3.connect(path)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    for old in sorted(backups.glob("studio-*.sqlite3"))[:-keep]:
        old.unlink(missing_ok=True)
    return target


def backup_if_first_today(path: Path, backups: Path) -> Path | None:
    """The once-a-day copy: made on the first start of each calendar day."""
    today = datetime.now().strftime("%Y%m%d")
    if any(backups.glob(f"studio-{today}-*.sqlite3")):
        return None
    return backup_database(path, backups, reason="daily")


def set_aside(path: Path) -> Path:
    """Rename a damaged database (and its WAL files) so a fresh one can be created."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    return target


__all__ = [
    "Database",
    "DatabaseProblem",
    "DatabaseLocked",
    "DatabaseCorrupt",
    "DatabaseTooNew",
    "FTS_TABLES",
    "HEAD_REVISION",
    "open_database",
    "backup_database",
    "backup_if_first_today",
    "set_aside",
]
