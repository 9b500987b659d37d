"""`studio db ...`: check, list, make, restore and salvage backups from a terminal.

Also the message every CLI command prints when the database cannot be opened: what is
wrong, then what to do, best first (restore the newest good backup, salvage, read-only).
"""

from __future__ import annotations

import json
import sys

from studio import paths
from studio.core import backups as bk
from studio.core import dbcheck
from studio.core.db import DatabaseCorrupt, DatabaseProblem, collection_existed
from studio.core.dbstate import live_sessions, stale_markers


def explain_problem(problem: DatabaseProblem) -> str:
    lines = [f"error: {problem.summary()}", f"  file: {problem.path}", f"  found: {problem.detail}"]
    if isinstance(problem, DatabaseCorrupt):
        lines.append("  Nothing was written to it. What you can do:")
        advice = bk.recovery_advice(problem.path, paths.backups_dir())
        lines += [f"  {i}. {a}" for i, a in enumerate(advice, 1)] or ["  (no backup and no file to salvage)"]
    return "\n".join(lines)


def _refuse_if_open(db_path) -> bool:
    pids = live_sessions(db_path)
    if pids:
        print(f"error: ML Infra Studio has the database open (process {', '.join(map(str, pids))}); "
              "close it first", file=sys.stderr)
        return True
    return False


def _check(db_path) -> int:
    backups = paths.backups_dir()
    if not db_path.exists() or db_path.stat().st_size == 0:
        if collection_existed(db_path, backups):
            print(f"damaged: {db_path} is missing or empty, but a collection existed here")
            for i, a in enumerate(bk.recovery_advice(db_path, backups), 1):
                print(f"  {i}. {a}")
            return 1
        print(f"no database yet at {db_path}")
        return 0
    result = dbcheck.run_check(db_path, full=True, budget_s=None)
    if result.blocked:
        print(f"error: {db_path} could not be read: {result.blocked}", file=sys.stderr)
        return 2
    if stale_markers(db_path):
        print("note: the last session did not close cleanly (a crash or a kill)")
    if not result.ok:
        print(f"damaged: {db_path}")
        for p in result.problems:
            print(f"  {p}")
        for i, a in enumerate(bk.recovery_advice(db_path, backups), 1):
            print(f"  {i}. {a}")
        return 1
    c = dbcheck.count_rows(db_path)
    print(f"ok: {db_path} ({c['cards']} cards, {c['reviews']} reviews; checked in {result.seconds:.2f} s)")
    good = bk.newest_good(backups)
    print(f"newest good backup: {good.id}" if good else "no verified backup yet (studio db backup makes one)")
    return 0


def _list(as_json: bool) -> int:
    listed = bk.list_backups(paths.backups_dir())
    if as_json:
        print(json.dumps([b.to_json() for b in listed], ensure_ascii=False))
        return 0
    if not listed:
        print(f"no backups in {paths.backups_dir()}")
        return 0
    print(f"{'id':<36} {'date':<16} {'cards':>7} {'reviews':>8} {'size':>9}  status")
    for b in listed:
        status = ("damaged" if b.damaged else "ok" if b.good else "no collection" if b.verified
                  else "unchecked")
        print(f"{b.id:<36} {b.created:%Y-%m-%d %H:%M} {b.cards:>7} {b.reviews:>8} "
              f"{b.size / 1e6:>7.1f}MB  {status}")
    return 0


def run_db_command(args) -> int:
    db_path = paths.database_path()
    backups = paths.backups_dir()
    try:
        if args.what == "check":
            return _check(db_path)
        if args.what == "backups":
            return _list(args.json)
        if args.what == "backup":
            info = bk.make_backup(db_path, backups, reason="manual")
            print(f"backup {info.id}: {info.cards} cards, {info.reviews} reviews, verified")
            return 0
        if _refuse_if_open(db_path):
            return 2
        if args.what == "restore":
            info, kept = bk.restore_backup(db_path, backups, args.id)
            print(f"restored {info.id} ({info.created:%Y-%m-%d %H:%M}: {info.cards} cards, {info.reviews} reviews)")
            if kept:
                print(f"the previous file is kept as {kept}")
            return 0
        if args.what == "salvage":
            if not db_path.exists():
                print(f"error: no database at {db_path} to salvage", file=sys.stderr)
                return 2
            report = bk.salvage_in_place(db_path)
            print(report.text())
            print(f"the damaged file is kept as {report.kept_aside}")
            return 0
    except (bk.BackupFailed, bk.RestoreFailed) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        from studio.core.errors import describe

        print(f"error: {describe(exc) or exc}", file=sys.stderr)
        return 2
    raise AssertionError(args.what)
