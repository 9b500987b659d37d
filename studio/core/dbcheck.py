"""Checking a SQLite file without writing to it.

Every check here opens the file read-only (`mode=ro`), so checking a damaged database
never changes it: no WAL checkpoint, no journal roll-back. `quick_check` is SQLite's
O(N) pass over every page (it skips the index-content comparison of `integrity_check`);
the check on open uses it under a time budget, backups use the full `integrity_check` on
their own copy.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"
# quick_check of a 20k-card / 200k-review collection (85 MB) took 135 ms on a 2-core VM
# (bench/results/db_safety.md); the budget leaves room for a cold, slow disk.
CHECK_BUDGET_S = 10.0
MAX_MESSAGES = 20


@dataclass
class CheckResult:
    """What a check found: `ok`, or the first problems SQLite named."""

    ok: bool
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    finished: bool = True  # False: the time budget ran out before the end
    blocked: str = ""  # not a verdict: the file could not be read (locked, no permission)

    def summary(self) -> str:
        if self.blocked:
            return f"could not be read: {self.blocked}"
        if not self.finished:
            return f"check stopped after {self.seconds:.1f} s (time budget)"
        if self.ok:
            return f"ok ({self.seconds:.2f} s)"
        more = "" if len(self.problems) < MAX_MESSAGES else " (first problems only)"
        return "; ".join(self.problems[:5]) + more


def connect_read_only(path: Path, timeout_s: float = 5.0) -> sqlite3.Connection:
    """A connection that cannot write to `path` (nor checkpoint its WAL into it).

    Where the folder is read-only and the WAL index cannot be created, a file with no
    pending WAL is opened as immutable instead.
    """
    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=timeout_s, check_same_thread=False)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        wal = Path(str(path) + "-wal")
        if not any(w in str(exc) for w in ("unable to open", "readonly")) or (wal.exists() and wal.stat().st_size > 0):
            raise
    conn = sqlite3.connect(uri + "&immutable=1", uri=True, timeout=timeout_s, check_same_thread=False)
    conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    return conn


def header_problem(path: Path) -> str | None:
    """A reason the file cannot be a whole SQLite database, from its first 100 bytes and size.

    Catches an empty file, a file that is not SQLite, and a file cut short (smaller than
    the page count its header records). None when the header looks right. The size is not
    judged while a write-ahead log beside it holds frames: a checkpoint copying them in
    (the app's own, on its thread, or the one SQLite runs after a crash) writes page 1 before
    the pages that extend the file, so a live database can be briefly shorter than its
    header says; SQLite's own check reads through the log and judges such a file.
    """
    size = path.stat().st_size
    if size == 0:
        return "the file is empty (0 bytes)"
    with open(path, "rb") as fh:
        head = fh.read(100)
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return "the file does not start with a SQLite header"
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return f"the header names an impossible page size ({page_size})"
    pages = int.from_bytes(head[28:32], "big")
    change, valid_for = head[24:28], head[92:96]
    if pages and change == valid_for and size < pages * page_size and not _wal_has_frames(path):
        return f"the file is cut short: {size:,} bytes, the header says {pages * page_size:,}"
    return None


def _wal_has_frames(path: Path) -> bool:
    """A `-wal` file beside the database with at least one frame (32-byte header + 24 + page)."""
    try:
        return path.with_name(path.name + "-wal").stat().st_size > 32
    except OSError:
        return False


def _blocked(exc: Exception) -> str:
    msg = str(exc)
    return msg if any(w in msg for w in ("locked", "busy", "unable to open", "permission", "readonly")) else ""


def run_check(path: Path, full: bool = False, budget_s: float | None = CHECK_BUDGET_S) -> CheckResult:
    """`PRAGMA quick_check` (or `integrity_check` when `full`) on a read-only connection.

    With a budget, SQLite is interrupted once it is spent and the result says it did not
    finish: a check that cannot complete in time is neither a pass nor a failure.
    """
    start = time.monotonic()
    problem = header_problem(path)
    if problem:
        return CheckResult(False, [problem], time.monotonic() - start)
    try:
        conn = connect_read_only(path)
    except sqlite3.DatabaseError as exc:
        return CheckResult(False, [str(exc)], time.monotonic() - start, blocked=_blocked(exc))
    stopped = False
    if budget_s is not None:
        deadline = start + budget_s

        def over_budget() -> int:
            nonlocal stopped
            stopped = time.monotonic() > deadline
            return 1 if stopped else 0

        conn.set_progress_handler(over_budget, 20000)
    try:
        pragma = "integrity_check" if full else "quick_check"
        rows = [r[0] for r in conn.execute(f"PRAGMA {pragma}({MAX_MESSAGES})")]
    except sqlite3.DatabaseError as exc:
        seconds = time.monotonic() - start
        if stopped:
            return CheckResult(False, [], seconds, finished=False)
        return CheckResult(False, [str(exc)], seconds, blocked=_blocked(exc))
    finally:
        conn.close()
    seconds = time.monotonic() - start
    ok = rows == ["ok"]
    return CheckResult(ok, [] if ok else [str(r) for r in rows], seconds)


def count_rows(path: Path) -> dict[str, int]:
    """Cards and reviews in a database file (read-only), for listing backups."""
    conn = connect_read_only(path)
    try:
        out = {}
        for key, sql in (("cards", "SELECT count(*) FROM cards WHERE retired = 0"),
                         ("reviews", "SELECT count(*) FROM review_log"),
                         ("interviews", "SELECT count(*) FROM interviews WHERE deleted_at IS NULL")):
            try:
                out[key] = int(conn.execute(sql).fetchone()[0])
            except sqlite3.DatabaseError:
                out[key] = -1
        return out
    finally:
        conn.close()


def schema_revision(path: Path) -> str | None:
    conn = connect_read_only(path)
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return row[0] if row else None
    except sqlite3.DatabaseError:
        return None
    finally:
        conn.close()
