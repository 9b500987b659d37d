"""A full disk or a read-only data folder during a write: one clear sentence, nothing lost.

The full disk is simulated two ways: SQLite's own size cap (`PRAGMA max_page_count`, which
fails a write with SQLITE_FULL exactly as a full disk does) in-process, and a real
file-size limit (RLIMIT_FSIZE) on a CLI import in a child process. The read-only folder is
a child process whose writes the kernel refuses (Landlock, as the drill sandbox uses; or
plain permissions when not running as root).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import event

from studio.core import dbcheck, errors
from studio.core.cards import CardDraft, create_card

ROOT = Path(__file__).resolve().parents[2]


def test_sqlite_full_keeps_the_data_and_names_the_problem(collection):
    for i in range(20):
        create_card(collection, CardDraft(q_en=f"Q{i}?", a_en="A"))
    engine = collection.db.engine
    with engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()

    def cap(dbapi_conn, _record):
        dbapi_conn.execute(f"PRAGMA max_page_count={pages}")

    event.listen(engine, "connect", cap)
    engine.dispose()
    with pytest.raises(Exception) as info:
        create_card(collection, CardDraft(q_en="big?", a_en="x" * 2_000_000))
    assert errors.classify(info.value) == "disk_full"
    assert errors.describe(info.value).startswith("The disk is full")
    assert collection.counts()["cards"] == 20  # reading still works, nothing half-written
    event.remove(engine, "connect", cap)
    engine.dispose()
    create_card(collection, CardDraft(q_en="after space was freed?", a_en="A"))
    assert collection.counts()["cards"] == 21


def _notes_folder(folder: Path, cards: int) -> Path:
    folder.mkdir()
    body = "\n\n".join(f"**Q{i}: why does tiling {i} help?**\n\n**A:** it reuses data {'x' * 200}"
                       for i in range(cards))
    (folder / "tiling.md").write_text("# Tiling\n\n" + body + "\n", encoding="utf-8")
    return folder


def _studio(args: list[str], home: Path, preexec=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "STUDIO_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", "import sys; from studio.app import main; sys.exit(main(sys.argv[1:]))",
                           *args], env=env, capture_output=True, text=True, timeout=120, preexec_fn=preexec)


def test_cli_import_on_a_full_disk_says_so_and_loses_nothing(studio_home, collection, tmp_path):
    for i in range(10):
        create_card(collection, CardDraft(q_en=f"kept {i}?", a_en="A"))
    collection.close()
    db = studio_home / "studio.sqlite3"
    folder = _notes_folder(tmp_path / "notes", 3000)
    limit = db.stat().st_size + 64 * 1024

    def small_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    before = dbcheck.count_rows(db)
    full = _studio(["import", "notes", str(folder), "--json"], studio_home, small_disk)
    assert full.returncode == 2, full.stderr
    assert "Traceback" not in full.stderr
    assert "error: The disk" in full.stderr  # "is full" or "reported an error", as SQLite saw it
    assert dbcheck.run_check(db, full=True).ok
    assert dbcheck.count_rows(db) == before  # the import is one transaction: none of it landed
    after = _studio(["stats", "--json"], studio_home)  # and the app opens it as usual
    assert after.returncode == 0, after.stderr


def _read_only_child():
    """Make the data folder unwritable for this child: Landlock, else permissions."""
    from studio.drills.harness import sandbox

    if sandbox.landlock_abi() > 0:
        message = sandbox.restrict_worker(["/dev", "/proc"])
        if "unavailable" in message:
            raise SystemExit(f"cannot restrict: {message}")
    elif os.geteuid() != 0:
        pass  # the test made the folder read-only with chmod
    else:
        raise SystemExit("no way to make a folder read-only for root here")


@pytest.mark.skipif(sys.platform != "linux", reason="Landlock/permissions set-up is Linux-specific")
def test_read_only_data_folder_reads_and_refuses_writes_plainly(studio_home, collection, tmp_path):
    from studio.drills.harness import sandbox

    if sandbox.landlock_abi() == 0 and os.geteuid() == 0:
        pytest.skip("running as root without Landlock: no way to make a folder read-only")
    for i in range(5):
        create_card(collection, CardDraft(q_en=f"kept {i}?", a_en="A"))
    collection.sync_shipped_cards(force=True)
    total = collection.counts()["cards"]
    collection.close()
    db = studio_home / "studio.sqlite3"
    before = db.read_bytes()
    if sandbox.landlock_abi() == 0:
        for p in [studio_home, *studio_home.rglob("*")]:
            p.chmod(0o555 if p.is_dir() else 0o444)
    folder = _notes_folder(tmp_path / "notes", 3)
    try:
        stats = _studio(["stats", "--json"], studio_home, _read_only_child)
        assert stats.returncode == 0, stats.stderr
        assert "read-only" in stats.stderr and "Traceback" not in stats.stderr
        assert json.loads(stats.stdout)["cards"] == total
        imp = _studio(["import", "notes", str(folder)], studio_home, _read_only_child)
        assert imp.returncode == 2
        assert "Traceback" not in imp.stderr
        assert "cannot be written" in imp.stderr
    finally:
        for p in [studio_home, *studio_home.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
    assert db.read_bytes() == before


def test_settings_on_a_read_only_folder_are_kept_in_memory(tmp_path, monkeypatch):
    from studio.core.settings import Settings

    settings = Settings(tmp_path / "settings.json")
    assert settings.save()

    def refuse(*_a, **_k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_text", refuse)
    settings.set("theme", "dark")  # does not raise
    assert settings.get("theme") == "dark" and "not saved" in settings.save_problem


def test_describe_names_each_kind():
    import errno
    import sqlite3

    assert errors.classify(OSError(errno.ENOSPC, "No space left on device")) == "disk_full"
    assert errors.classify(OSError(errno.EROFS, "Read-only file system")) == "read_only"
    assert errors.classify(sqlite3.OperationalError("attempt to write a readonly database")) == "read_only"
    assert errors.classify(sqlite3.OperationalError("disk I/O error")) == "io"
    assert errors.classify(sqlite3.DatabaseError("database disk image is malformed")) == "damaged"
    assert errors.classify(ValueError("database or disk is full")) is None  # only real I/O errors
