"""Backups that can be trusted, restoring them, and salvaging a damaged database.

A backup is made with SQLite's online backup API into a temporary file, checked with
`PRAGMA integrity_check`, counted (cards, reviews) and only then given its final name
with a JSON sidecar saying it was verified. A copy that fails its check is deleted and
reported: it never counts as a backup, so a damaged database cannot push good copies
out. Rotation keeps generations like Anki's (the newest backup of each of the last 7
days, 4 weeks and 6 months) and never removes the newest verified backup.

Restoring checks the backup again, keeps the current file (with its WAL) aside under a
new name, and puts a copy of the backup in its place. Salvage copies every row SQLite
can still read from a damaged file into a fresh database, range by range, bisecting
around unreadable pages, and reports what it could not read.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from studio.core import dbcheck
from studio.core.dbstate import DbState

log = logging.getLogger(__name__)

DAILY, WEEKLY, MONTHLY = 7, 4, 6
KEEP_PER_REASON = {"pre-migration": 3, "manual": 10}
NAME_PREFIX = "studio-"


class BackupFailed(Exception):
    """A backup copy failed its check (or could not be written); `str()` is for the user."""


class RestoreFailed(Exception):
    """A backup that cannot be restored; the current file is left as it was."""


@dataclass
class BackupInfo:
    id: str  # e.g. 20261125-093012-123456-daily
    path: Path
    created: datetime
    reason: str
    verified: bool = False  # passed integrity_check when made (or when first listed)
    damaged: bool = False  # failed its check: listed, never restored, never counted as good
    cards: int = -1
    reviews: int = -1
    size: int = 0

    @property
    def good(self) -> bool:
        """Passed its check and holds a collection (an empty file passes SQLite's check too)."""
        return self.verified and not self.damaged and self.cards >= 0

    def to_json(self) -> dict:
        out = asdict(self)
        out["path"] = str(self.path)
        out["created"] = self.created.isoformat(timespec="seconds")
        return out


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def _parse_name(path: Path) -> tuple[datetime, str] | None:
    stem = path.name[len(NAME_PREFIX):-len(".sqlite3")]
    parts = stem.split("-", 3)
    if len(parts) < 3:
        return None
    try:
        created = datetime.strptime("-".join(parts[:3]), "%Y%m%d-%H%M%S-%f")
    except ValueError:
        return None
    return created, parts[3] if len(parts) > 3 else "daily"


def _write_sidecar(info: BackupInfo) -> None:
    meta = {"verified": info.verified, "damaged": info.damaged, "cards": info.cards,
            "reviews": info.reviews, "reason": info.reason}
    tmp = _sidecar(info.path).with_suffix(".tmp")
    tmp.write_text(json.dumps(meta), encoding="utf-8")
    os.replace(tmp, _sidecar(info.path))


def _verify(path: Path) -> tuple[bool, str, dict]:
    try:
        result = dbcheck.run_check(path, full=True, budget_s=None)
        if not result.ok:
            return False, result.summary(), {}
        return True, "ok", dbcheck.count_rows(path)
    finally:
        _drop_empty_wal(path)


def _drop_empty_wal(path: Path) -> None:
    """A WAL-mode copy (made by an earlier version) read read-only leaves an empty -wal and
    its -shm behind; nothing else has a backup open, so they can go."""
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size == 0:
        _remove_with_sidefiles(path, keep_main=True)


def list_backups(backups: Path, verify_unknown: bool = True) -> list[BackupInfo]:
    """Every backup in the folder, newest first.

    Copies made by older versions (no sidecar) are checked once and given one, so a
    damaged old copy is never mistaken for a good one.
    """
    if not backups.is_dir():
        return []
    found = []
    for path in backups.glob(f"{NAME_PREFIX}*.sqlite3"):
        parsed = _parse_name(path)
        if parsed is None:
            continue
        created, reason = parsed
        info = BackupInfo(id=path.name[len(NAME_PREFIX):-len(".sqlite3")], path=path,
                          created=created, reason=reason, size=path.stat().st_size)
        try:
            meta = json.loads(_sidecar(path).read_text(encoding="utf-8"))
            info.verified = bool(meta.get("verified"))
            info.damaged = bool(meta.get("damaged"))
            info.cards = int(meta.get("cards", -1))
            info.reviews = int(meta.get("reviews", -1))
        except (OSError, ValueError, TypeError):
            if verify_unknown:
                ok, detail, counts = _verify(path)
                info.verified, info.damaged = ok, not ok
                info.cards, info.reviews = counts.get("cards", -1), counts.get("reviews", -1)
                if not ok:
                    log.warning("backup %s failed its check: %s", path.name, detail)
                try:
                    _write_sidecar(info)
                except OSError as exc:
                    log.warning("cannot write sidecar for %s: %s", path.name, exc)
        found.append(info)
    return sorted(found, key=lambda b: b.created, reverse=True)


def newest_good(backups: Path) -> BackupInfo | None:
    return next((b for b in list_backups(backups) if b.good), None)


def find_backup(backups: Path, backup_id: str) -> BackupInfo:
    """A backup by id, unique id prefix, or 'newest' (the newest good one)."""
    listed = list_backups(backups)
    if backup_id == "newest":
        good = [b for b in listed if b.good]
        if not good:
            raise RestoreFailed(f"no verified backup in {backups}")
        return good[0]
    matches = [b for b in listed if b.id == backup_id] or [b for b in listed if b.id.startswith(backup_id)]
    if len(matches) != 1:
        what = "no backup" if not matches else f"{len(matches)} backups"
        raise RestoreFailed(f"{what} with id {backup_id!r} in {backups} (see `studio db backups`)")
    return matches[0]


def generations_to_keep(backups: list[BackupInfo]) -> set[str]:
    """Ids to keep: the newest good one; of the automatic ones, the newest of each of the last
    7 days, 4 ISO weeks and 6 months; the newest 10 made by hand and 3 made before upgrades."""
    good = sorted((b for b in backups if b.good), key=lambda b: b.created, reverse=True)
    keep: set[str] = set()
    if good:
        keep.add(good[0].id)
    automatic = [b for b in good if b.reason not in KEEP_PER_REASON]  # the user's own copies count apart
    for limit, bucket in ((DAILY, lambda d: d.date()),
                          (WEEKLY, lambda d: tuple(d.isocalendar())[:2]),
                          (MONTHLY, lambda d: (d.year, d.month))):
        seen: list = []
        for b in automatic:
            key = bucket(b.created)
            if key in seen:
                continue
            seen.append(key)
            if len(seen) > limit:
                break
            keep.add(b.id)
    for reason, count in KEEP_PER_REASON.items():
        keep.update(b.id for b in [g for g in good if g.reason == reason][:count])
    return keep


def rotate(backups: Path) -> list[Path]:
    """Delete backups outside the generations; damaged copies go once a newer good one exists."""
    _remove_orphan_sidefiles(backups)
    listed = list_backups(backups)
    keep = generations_to_keep(listed)
    newest_good_time = max((b.created for b in listed if b.good), default=None)
    removed = []
    for b in listed:
        if b.id in keep:
            continue
        if b.damaged and (newest_good_time is None or b.created > newest_good_time):
            continue  # a damaged copy newer than every good one: keep for salvage
        if not b.verified and not b.damaged:
            continue  # could not be checked (e.g. unreadable sidecar folder): never delete blind
        _remove_with_sidefiles(b.path)
        _sidecar(b.path).unlink(missing_ok=True)
        removed.append(b.path)
    return removed


def _remove_with_sidefiles(path: Path, keep_main: bool = False) -> None:
    """Delete `path`'s -wal/-shm/-journal files (and `path` itself unless `keep_main`)."""
    for suffix in ("-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    if not keep_main:
        path.unlink(missing_ok=True)


def _remove_orphan_sidefiles(backups: Path) -> None:
    """-wal/-shm files of copies that no longer exist (left by earlier versions)."""
    for side in [*backups.glob(f"{NAME_PREFIX}*-wal"), *backups.glob(f"{NAME_PREFIX}*-shm")]:
        main = side.with_name(side.name.rsplit("-", 1)[0])
        if not main.exists():
            side.unlink(missing_ok=True)


def make_backup(db_path: Path, backups: Path, reason: str = "daily") -> BackupInfo:
    """Copy, check and count; keep the copy only if it passed. Then rotate.

    A missing, empty or cut-short file, or one that holds no collection, is refused: such
    a copy would pass SQLite's check and push good backups out.
    """
    if not db_path.exists():
        raise BackupFailed(f"there is no database at {db_path} to back up")
    problem = dbcheck.header_problem(db_path)
    if problem:
        raise BackupFailed(f"{db_path.name} is not backed up: {problem}; run `studio db check`")
    backups.mkdir(parents=True, exist_ok=True)
    now = datetime.now()
    stamp = now.strftime("%Y%m%d-%H%M%S-%f")
    target = backups / f"{NAME_PREFIX}{stamp}-{reason}.sqlite3"
    partial = target.with_name(target.name + ".partial")
    try:
        src = dbcheck.connect_read_only(db_path)
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            # One self-contained file: a WAL-mode copy would leave -wal/-shm files beside it
            # when it is checked read-only.
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
            src.close()
    except (sqlite3.Error, OSError) as exc:
        _remove_with_sidefiles(partial)
        raise BackupFailed(f"could not copy {db_path} to {backups}: {exc}") from exc
    try:
        ok, detail, counts = _verify(partial)
    finally:
        _remove_with_sidefiles(partial, keep_main=True)
    if ok and dbcheck.schema_revision(partial) is None:
        _remove_with_sidefiles(partial)
        raise BackupFailed(f"{db_path.name} is not backed up: it holds no collection (no schema revision)")
    if not ok:
        _remove_with_sidefiles(partial)
        state = DbState.load(db_path)
        state.last_check = ""  # the next open runs the check and offers the way out
        state.save(db_path)
        raise BackupFailed(f"the copy of {db_path.name} failed its integrity check ({detail}); "
                           "the database itself is probably damaged: run `studio db check`")
    os.replace(partial, target)
    info = BackupInfo(id=target.name[len(NAME_PREFIX):-len(".sqlite3")], path=target, created=now,
                      reason=reason, verified=True, cards=counts.get("cards", -1),
                      reviews=counts.get("reviews", -1), size=target.stat().st_size)
    _write_sidecar(info)
    state = DbState.load(db_path)
    state.exists, state.cards, state.reviews = True, info.cards, info.reviews
    state.save(db_path)
    rotate(backups)
    log.info("backup %s: %d cards, %d reviews", target.name, info.cards, info.reviews)
    return info


def backup_if_first_today(db_path: Path, backups: Path) -> BackupInfo | None:
    """The once-a-day copy: made on the first start of each calendar day that has none good."""
    today = datetime.now().date()
    if any(b.created.date() == today and b.good for b in list_backups(backups)):
        return None
    return make_backup(db_path, backups, reason="daily")


# --- restoring -----------------------------------------------------------------------------
def set_aside(path: Path, label: str = "damaged") -> Path:
    """Rename a database (and its WAL files) out of the way; nothing is deleted."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    if path.exists():
        path.rename(target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    return target


def _put_in_place(new_file: Path, db_path: Path, label: str) -> Path | None:
    """Move the current database aside (if any) and `new_file` into its place."""
    kept = set_aside(db_path, label) if db_path.exists() else None
    os.replace(new_file, db_path)
    for marker in db_path.parent.glob(db_path.name + ".open-*"):
        marker.unlink(missing_ok=True)
    return kept


def restore_backup(db_path: Path, backups: Path, backup_id: str) -> tuple[BackupInfo, Path | None]:
    """Put a checked copy of a backup in place of the database (which must be closed).

    Returns the backup and where the previous file was kept.
    """
    info = find_backup(backups, backup_id)
    ok, detail, counts = _verify(info.path)
    if not ok:
        info.verified, info.damaged = False, True
        _write_sidecar(info)
        raise RestoreFailed(f"backup {info.id} failed its integrity check ({detail}); choose another")
    staging = db_path.with_name(db_path.name + ".restoring")
    staging.unlink(missing_ok=True)
    try:
        src = dbcheck.connect_read_only(info.path)
        dst = sqlite3.connect(staging)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
            _drop_empty_wal(info.path)
    except BaseException:  # a full disk mid-copy: leave the database as it was, and no half copy
        _remove_with_sidefiles(staging)
        raise
    kept = _put_in_place(staging, db_path, "before-restore")
    state = DbState.load(db_path)
    state.exists, state.cards, state.reviews = True, counts.get("cards", -1), counts.get("reviews", -1)
    state.last_check = datetime.now().date().isoformat()
    state.save(db_path)
    log.warning("restored backup %s over %s (previous file kept as %s)", info.id, db_path, kept)
    return info, kept


# --- salvage -------------------------------------------------------------------------------
@dataclass
class TableSalvage:
    table: str
    copied: int = 0
    unreadable: list[tuple[int, int]] = field(default_factory=list)  # rowid ranges lost
    error: str = ""  # the whole table could not be read

    def lost_rows(self) -> int:
        return sum(hi - lo + 1 for lo, hi in self.unreadable)


@dataclass
class SalvageReport:
    source: Path
    target: Path
    tables: list[TableSalvage] = field(default_factory=list)
    kept_aside: Path | None = None

    @property
    def copied(self) -> int:
        return sum(t.copied for t in self.tables)

    def problems(self) -> list[str]:
        out = []
        for t in self.tables:
            if t.error:
                out.append(f"{t.table}: not readable ({t.error})")
            for lo, hi in t.unreadable:
                rows = f"row {lo}" if lo == hi else f"rows {lo}–{hi}"
                out.append(f"{t.table}: {rows} unreadable (ids that may or may not have held data)")
        return out

    def text(self) -> str:
        lines = [f"Salvaged {self.copied:,} rows from {self.source} into {self.target}."]
        lines += [f"  {t.table}: {t.copied:,} rows" for t in self.tables if t.copied or t.error or t.unreadable]
        problems = self.problems()
        lines.append("Could not read:" if problems else "Every row was read.")
        lines += [f"  {p}" for p in problems]
        return "\n".join(lines)


_SKIP_TABLES = ("alembic_version", "sqlite_sequence", "card_changes")   # the salvaged file starts its own log
CHUNK = 512


def _copy_table(src: sqlite3.Connection, dst: sqlite3.Connection, table: str, columns: list[str]) -> TableSalvage:
    out = TableSalvage(table)
    cols = ", ".join(f'"{c}"' for c in columns)
    insert = f'INSERT OR IGNORE INTO "{table}" ({cols}) VALUES ({", ".join("?" * len(columns))})'
    select = f'SELECT {cols} FROM "{table}" WHERE rowid BETWEEN ? AND ? ORDER BY rowid'

    def read(lo: int, hi: int) -> None:
        try:
            rows = src.execute(select, (lo, hi)).fetchall()
        except sqlite3.DatabaseError:
            if lo == hi:
                out.unreadable.append((lo, hi))
                return
            mid = (lo + hi) // 2
            read(lo, mid)
            read(mid + 1, hi)
            return
        dst.executemany(insert, rows)
        out.copied += len(rows)

    try:
        lo_row = src.execute(f'SELECT min(rowid) FROM "{table}"').fetchone()[0]
        hi_row = src.execute(f'SELECT max(rowid) FROM "{table}"').fetchone()[0]
    except sqlite3.DatabaseError:
        lo_row, hi_row = 1, None
    if lo_row is None and hi_row is None:
        return out
    lo = lo_row if lo_row is not None else 1
    if hi_row is not None:
        for start in range(lo, hi_row + 1, CHUNK):
            read(start, min(start + CHUNK - 1, hi_row))
    else:  # the ends of the tree are unreadable: walk until a long empty stretch
        start, empty_chunks = lo, 0
        while empty_chunks < 64:
            before = (out.copied, len(out.unreadable))
            read(start, start + CHUNK - 1)
            empty_chunks = empty_chunks + 1 if (out.copied, len(out.unreadable)) == before else 0
            start += CHUNK
    out.unreadable = _merge_ranges(out.unreadable)
    return out


def _merge_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


def salvage(db_path: Path, target: Path) -> SalvageReport:
    """Copy every readable row of `db_path` into a new database at `target` (current schema)."""
    from studio.core.db import create_fresh

    target.unlink(missing_ok=True)
    create_fresh(target)
    report = SalvageReport(db_path, target)
    try:
        src = dbcheck.connect_read_only(db_path)
    except sqlite3.DatabaseError as exc:  # not even the schema is readable: an empty collection
        report.tables.append(TableSalvage("(whole file)", error=str(exc)))
        return report
    dst = sqlite3.connect(target)
    try:
        dst.execute("PRAGMA foreign_keys=OFF")
        wanted = [r[0] for r in dst.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        from studio.core.models import FTS_TABLES

        wanted = [t for t in wanted if t not in _SKIP_TABLES and not any(t.startswith(f) for f in FTS_TABLES)]
        for table in wanted:
            try:
                src_cols = {r[1] for r in src.execute(f'PRAGMA table_info("{table}")')}
            except sqlite3.DatabaseError as exc:
                report.tables.append(TableSalvage(table, error=str(exc)))
                continue
            if not src_cols:
                continue
            dst_cols = [r[1] for r in dst.execute(f'PRAGMA table_info("{table}")')]
            columns = [c for c in dst_cols if c in src_cols]
            dst.execute("BEGIN")
            try:
                report.tables.append(_copy_table(src, dst, table, columns))
                dst.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                dst.execute("ROLLBACK")
                report.tables.append(TableSalvage(table, error=str(exc)))
    finally:
        src.close()
        dst.close()
    return report


def salvage_in_place(db_path: Path) -> SalvageReport:
    """Salvage into a new file, keep the damaged one aside, put the salvaged one in place."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    staging = db_path.with_name(f"{db_path.name}.salvaging")
    report = salvage(db_path, staging)
    report.kept_aside = _put_in_place(staging, db_path, "damaged")
    report.target = db_path
    text_path = db_path.with_name(f"{db_path.name}.salvage-report-{stamp}.txt")
    try:
        text_path.write_text(report.text() + "\n", encoding="utf-8")
    except OSError:
        pass
    state = DbState.load(db_path)
    state.exists = True
    state.last_check = ""
    state.save(db_path)
    return report


def recovery_advice(db_path: Path, backups: Path) -> list[str]:
    """What the user can do about a damaged database, best first, as CLI commands."""
    advice = []
    good = newest_good(backups)
    if good is not None:
        advice.append(f"restore the newest good backup ({good.created:%Y-%m-%d %H:%M}, {good.cards} cards, "
                      f"{good.reviews} reviews): studio db restore {good.id}")
    if db_path.exists() and db_path.stat().st_size > 0:
        advice.append("salvage every readable row into a fresh database: studio db salvage")
        advice.append("open it read-only: start the app and choose \"Open read-only\" in the dialog it shows")
    return advice
