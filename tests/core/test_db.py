"""Opening, creating, migrating and protecting the database."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap

import pytest

from studio.core import db as dbmod
from studio.core.backups import backup_if_first_today, list_backups, make_backup, set_aside
from studio.core.db import (
    DatabaseCorrupt,
    DatabaseLocked,
    DatabaseTooNew,
    open_database,
)


def test_new_database_is_created_stamped_and_has_pragmas(tmp_path):
    path = tmp_path / "s.sqlite3"
    database = open_database(path)
    with database.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == dbmod.HEAD_REVISION
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
        tables = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"cards", "review_log", "interviews", "notes_fts", "cards_fts", "drill_attempts"} <= tables
    database.close()


def test_wal_checkpoints_run_off_the_committing_thread(tmp_path):
    """The engine's connections never checkpoint on commit (SQLite's automatic checkpoint made
    one answer in ~75 six to eight ms slower: the review core's p99); the checkpointer thread
    does it every EVERY commits, and closing leaves no log behind."""
    import threading
    import time

    path = tmp_path / "s.sqlite3"
    database = open_database(path)
    checkpointer = database.checkpointer
    assert checkpointer is not None
    with database.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    for i in range(dbmod.WalCheckpointer.EVERY * 2):
        with database.engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO alembic_version VALUES (?)", (f"x{i}",))
    deadline = time.monotonic() + 10
    while checkpointer.runs < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert checkpointer.runs >= 1
    assert any(t.name == "sqlite-wal-checkpoint" for t in threading.enumerate())
    database.close()
    assert not any(t.name == "sqlite-wal-checkpoint" for t in threading.enumerate())
    assert not (tmp_path / "s.sqlite3-wal").exists()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM alembic_version").fetchone()[0] == 1 + 2 * dbmod.WalCheckpointer.EVERY


def test_a_read_only_open_has_no_checkpointer(tmp_path):
    path = tmp_path / "s.sqlite3"
    open_database(path).close()
    database = open_database(path, read_only=True)
    assert database.checkpointer is None
    database.close()


def test_alembic_migrations_build_the_same_schema_as_create(tmp_path):
    """Upgrading an empty file through Alembic gives what create_schema gives."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from studio.core.db import include_name
    from studio.core.models import Base

    engine = dbmod.make_engine(tmp_path / "m.sqlite3")
    dbmod._upgrade(engine)
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"include_name": include_name})
        assert compare_metadata(ctx, Base.metadata) == []
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == dbmod.HEAD_REVISION
        fts = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE name GLOB '*_fts'")}
    assert fts == {"notes_fts", "cards_fts"}
    engine.dispose()


def test_head_revision_constant_matches_alembic_scripts():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(dbmod.MIGRATIONS_DIR))
    script = ScriptDirectory.from_config(cfg)
    assert script.get_current_head() == dbmod.HEAD_REVISION
    assert {r.revision for r in script.walk_revisions()} == set(dbmod.KNOWN_REVISIONS)


def test_newer_schema_is_refused_and_file_left_alone(tmp_path):
    path = tmp_path / "s.sqlite3"
    open_database(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num='9999'")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseTooNew) as info:
        open_database(path)
    assert "9999" in str(info.value)
    assert path.read_bytes() == before


def test_corrupt_file_is_refused_not_overwritten_and_can_be_set_aside(tmp_path):
    path = tmp_path / "s.sqlite3"
    path.write_bytes(b"this is not a database" * 200)
    before = path.read_bytes()
    with pytest.raises(DatabaseCorrupt):
        open_database(path)
    assert path.read_bytes() == before
    kept = set_aside(path)
    assert kept.read_bytes() == before and not path.exists()
    open_database(path).close()  # a fresh one can now be created


def test_locked_database_is_reported(tmp_path):
    path = tmp_path / "s.sqlite3"
    open_database(path).close()
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sqlite3, sys, time
        con = sqlite3.connect({str(path)!r}, isolation_level=None)
        con.execute("PRAGMA journal_mode=DELETE")
        con.execute("PRAGMA locking_mode=EXCLUSIVE")
        con.execute("BEGIN EXCLUSIVE")
        print("locked", flush=True)
        time.sleep(30)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(DatabaseLocked):
            open_database(path, busy_timeout_ms=200)
    finally:
        holder.kill()
        holder.wait()


def test_backups_are_verified_and_counted(tmp_path):
    path = tmp_path / "s.sqlite3"
    open_database(path).close()
    backups = tmp_path / "backups"
    made = make_backup(path, backups, reason="manual")
    assert made.verified and made.cards == 0 and made.reviews == 0
    assert [b.id for b in list_backups(backups)] == [made.id]
    assert sqlite3.connect(made.path).execute("SELECT count(*) FROM cards").fetchone() == (0,)


def test_daily_backup_only_once_a_day(tmp_path):
    path = tmp_path / "s.sqlite3"
    open_database(path).close()
    backups = tmp_path / "backups"
    assert backup_if_first_today(path, backups) is not None
    assert backup_if_first_today(path, backups) is None
    assert len(list(backups.glob("*.sqlite3"))) == 1


def test_a_revision_0004_file_gains_the_card_change_log(tmp_path):
    """Opening a collection written before revision 0005 adds the change log and its
    triggers through Alembic; the cards already there are left as they were, and writes
    from then on are logged."""
    from studio.core.cards import CardDraft, create_card
    from studio.core.collection import Collection

    path = tmp_path / "old.sqlite3"
    col = Collection.open(path)
    create_card(col, CardDraft(q_en="q", a_en="a"))
    col.close()
    with sqlite3.connect(path) as conn:          # make it what a 0004 build wrote
        for trigger in ("card_changes_ai", "card_changes_ad", "card_changes_au"):
            conn.execute(f"DROP TRIGGER {trigger}")
        conn.execute("DROP TABLE card_changes")
        conn.execute("UPDATE alembic_version SET version_num = '0004'")
    database = open_database(path)
    with database.engine.begin() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == "0005"
        assert conn.exec_driver_sql("SELECT count(*) FROM card_changes").scalar() == 0
        conn.exec_driver_sql("UPDATE cards SET due = '2026-01-01 00:00:00.000000'")
        assert conn.exec_driver_sql("SELECT card_id FROM card_changes").scalar() == \
            conn.exec_driver_sql("SELECT id FROM cards").scalar()
    database.close()
