"""History of `studio-bench` runs, and comparing two of them point by point.

Each run is stored with where it came from: the kernel file and function, the spec, a
hash of both files' contents, and the git commit (with a dirty flag for the kernel file)
when the kernel sits in a git repository, so "yesterday's run" means a known version of
the code. A comparison gives, per (size, dtype) point present in both runs, the speedup of
the newer run and whether the change is beyond the noise: the two runs' p20–p80 ranges
do not overlap.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import select

from studio.core.collection import Collection, utcnow
from studio.core.models import BenchRun


def content_hash(*files: Path) -> str:
    digest = hashlib.sha256()
    for path in files:
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
        digest.update(b"\0")
    return digest.hexdigest()


def git_info(path: Path) -> tuple[str | None, bool | None]:
    """(commit, dirty) of the repository holding `path`, or (None, None) outside one."""
    folder = Path(path).resolve().parent
    try:
        head = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        if head.returncode != 0:
            return None, None
        status = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--", str(Path(path).resolve())],
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None, None
    return head.stdout.strip(), bool(status.stdout.strip())


def record_run(col: Collection, doc: dict, kernel: Path, func: str, spec: Path) -> int:
    """Store a run's JSON document (bench_cli.summary); returns its id."""
    commit, dirty = git_info(kernel)
    with col.db.session() as s, s.begin():
        run = BenchRun(kernel_path=str(Path(kernel).resolve()), func=func, spec_path=str(spec),
                       content_hash=content_hash(kernel, spec), git_commit=commit, git_dirty=dirty,
                       started_at=utcnow(), status=str(doc.get("status")), mode=doc.get("mode") or "",
                       device=doc.get("device") or "", protocol=doc.get("protocol") or "engine",
                       versions_json=json.dumps(doc.get("versions") or {}), points_json=json.dumps(doc))
        s.add(run)
        s.flush()
        return run.id


def list_runs(col: Collection, kernel: Path | None = None, func: str | None = None) -> list[BenchRun]:
    """Runs newest first, of one kernel file (and function) if given."""
    query = select(BenchRun).order_by(BenchRun.started_at.desc(), BenchRun.id.desc())
    if kernel is not None:
        query = query.where(BenchRun.kernel_path == str(Path(kernel).resolve()))
    if func is not None:
        query = query.where(BenchRun.func == func)
    with col.db.session() as s:
        return list(s.scalars(query))


def get_run(col: Collection, run_id: int) -> BenchRun | None:
    with col.db.session() as s:
        return s.get(BenchRun, run_id)


def run_points(run: BenchRun) -> list[dict]:
    try:
        return list(json.loads(run.points_json).get("points") or [])
    except (ValueError, AttributeError):
        return []


@dataclass
class PointChange:
    size: list[int]
    dtype: str
    old_ms: float
    new_ms: float
    speedup: float  # old / new: above 1 is faster now
    beyond_noise: bool

    @property
    def verdict(self) -> str:
        if not self.beyond_noise:
            return "same"
        return "faster" if self.speedup > 1 else "slower"


def compare_points(old: list[dict], new: list[dict]) -> list[PointChange]:
    """Per point timed in both (correct in both): speedup of `new` over `old`, and whether
    the p20–p80 ranges of the two are apart (a change beyond the run-to-run noise)."""
    before = {(tuple(p["size"]), p["dtype"]): p for p in old if p.get("ms") and p.get("passed")}
    changes = []
    for p in new:
        q = before.get((tuple(p["size"]), p["dtype"]))
        if q is None or not p.get("ms") or not p.get("passed"):
            continue
        lo_new, hi_new = p.get("p20") or p["ms"], p.get("p80") or p["ms"]
        lo_old, hi_old = q.get("p20") or q["ms"], q.get("p80") or q["ms"]
        apart = hi_new < lo_old or lo_new > hi_old
        changes.append(PointChange(list(p["size"]), p["dtype"], q["ms"], p["ms"], q["ms"] / p["ms"], apart))
    return changes


def describe_run(run: BenchRun) -> str:
    when = run.started_at.strftime("%Y-%m-%d %H:%M") if isinstance(run.started_at, datetime) else str(run.started_at)
    git = f" {run.git_commit[:10]}{'+dirty' if run.git_dirty else ''}" if run.git_commit else ""
    return f"#{run.id} {when} UTC {run.func} {run.status} on {run.device or '?'} ({run.protocol}){git}"
