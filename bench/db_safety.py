"""What the data-safety checks cost at scale: 20,000 cards and 200,000 review logs.

Measures, on a collection built like bench/trainer_scale.py builds one:
  - the check on open (`PRAGMA quick_check`, read-only), cold-ish and warm;
  - the full `integrity_check` a backup runs on its copy;
  - a whole verified backup (copy + integrity_check + counts + rotation);
  - restore (verify again + copy into place) and salvage of an undamaged file;
  - open_database when the check is due versus when it is not.
Results go to bench/results/db_safety.json (and the figures into db_safety.md by hand).

    python bench/db_safety.py [--cards 20000] [--logs 200000] [--out bench/results/db_safety.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def timed(fn, repeat: int = 3) -> dict:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return {"median_ms": round(statistics.median(samples), 1), "max_ms": round(max(samples), 1), "n": repeat}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=20000)
    parser.add_argument("--logs", type=int, default=200000)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "db_safety.json"))
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="studio-dbsafety-"))
    os.environ["STUDIO_HOME"] = str(home)
    from trainer_scale import build_ours

    from studio import paths
    from studio.core import backups as bk
    from studio.core import dbcheck
    from studio.core.db import open_database
    from studio.core.dbstate import DbState

    col = build_ours(args.cards, args.logs, random.Random(7))
    col.close()
    db = paths.database_path()
    size_mb = db.stat().st_size / 1e6
    results: dict = {"cards": args.cards, "logs": args.logs, "db_mb": round(size_mb, 1)}
    results["quick_check"] = timed(lambda: dbcheck.run_check(db))
    results["integrity_check"] = timed(lambda: dbcheck.run_check(db, full=True, budget_s=None))
    backups = paths.backups_dir()
    results["verified_backup"] = timed(lambda: bk.make_backup(db, backups, reason="manual"))

    def open_due():
        state = DbState.load(db)
        state.last_check = ""
        state.save(db)
        open_database(db, backups).close()

    results["open_with_check"] = timed(open_due)
    results["open_without_check"] = timed(lambda: open_database(db, backups).close())
    results["restore"] = timed(lambda: bk.restore_backup(db, backups, "newest"), repeat=2)
    results["salvage_undamaged"] = timed(lambda: bk.salvage_in_place(db), repeat=1)
    results["machine"] = {"platform": platform.platform(), "python": platform.python_version(),
                          "sqlite": sqlite3.sqlite_version, "cpus": os.cpu_count()}
    print(json.dumps(results, indent=1))
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
