"""Drill attempts: every run of a drill kept with its code, outcome and benchmark.

Used by the Drills pane and by `studio-drill run --record`. The personal best of a
drill is its passing attempt with the highest throughput (GB/s, or TFLOP/s for
compute-bound drills).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, func, select
from sqlalchemy.orm import selectinload

from studio.core.collection import Collection, utcnow
from studio.core.models import BenchPoint, DrillAttempt


@dataclass
class DrillSummary:
    drill_id: str
    attempts: int
    solved: bool
    best_gbps: float | None


# A figure above 115% of the device's measured peak is not a measurement (the judge's
# studio.drills.harness.timing.PEAK_MARGIN; that module imports torch, this one may not).
PEAK_MARGIN = 1.15


def _throughput(point: dict) -> float | None:
    return point.get("tflops") if point.get("tflops") is not None else point.get("gbps")


def counts_for_best(point: dict, bench: dict) -> bool:
    """Can this point's figure be a personal best?

    Only a passed point whose timing the judge accepted (no `invalid`), and never one above
    the device's measured peaks (`bench`: copy_gbps, matmul_tflops of the run): such figures
    come from work that escaped the timed stream, or, under CUDA-graph replay, from data
    left in L2 between replays (a note beside the figure, not a result).
    """
    if not point.get("passed", True) or point.get("invalid"):
        return False
    copy_gbps, tflops_peak = bench.get("copy_gbps"), bench.get("matmul_tflops")
    if copy_gbps and (point.get("gbps") or 0) > PEAK_MARGIN * copy_gbps:
        return False
    if tflops_peak and (point.get("tflops") or 0) > PEAK_MARGIN * tflops_peak:
        return False
    return True


def record_attempt(col: Collection, result: dict, code: str, language: str = "triton",
                   time_to_pass_s: float | None = None, over_time: bool = False,
                   started_at: datetime | None = None) -> int:
    """Store a run (RunResult.to_dict()) with its code; returns the attempt id."""
    bench = result.get("bench") or {}
    points = bench.get("points") or []
    best = max((t for t in (_throughput(p) for p in points if counts_for_best(p, bench)) if t is not None),
               default=None)
    with col.db.session() as s, s.begin():
        attempt = DrillAttempt(
            drill_id=result.get("drill", ""), started_at=started_at or utcnow(), language=language,
            mode=result.get("mode") or "unknown", device=result.get("device") or "",
            passed=result.get("status") == "passed", best_gbps=best, time_to_pass_s=time_to_pass_s,
            over_time=over_time, code=code, result_json=json.dumps(result),
        )
        for p in points:
            attempt.points.append(BenchPoint(
                size="x".join(str(v) for v in p.get("size", [])) + f" {p.get('dtype', '')}".rstrip(),
                ms=p.get("ms") or 0.0, p20=p.get("p20"), p80=p.get("p80"), ref_ms=p.get("ref_ms"),
                gbps=p.get("gbps"), tflops=p.get("tflops"), pct_of_peak=p.get("pct_of_peak")))
        s.add(attempt)
        s.flush()
        return attempt.id


def list_attempts(col: Collection, drill_id: str) -> list[DrillAttempt]:
    with col.db.session() as s:
        return list(s.scalars(select(DrillAttempt).options(selectinload(DrillAttempt.points))
                              .where(DrillAttempt.drill_id == drill_id)
                              .order_by(DrillAttempt.started_at.desc(), DrillAttempt.id.desc())))


def personal_best(col: Collection, drill_id: str) -> DrillAttempt | None:
    with col.db.session() as s:
        return s.scalars(select(DrillAttempt).options(selectinload(DrillAttempt.points))
                         .where(DrillAttempt.drill_id == drill_id, DrillAttempt.passed.is_(True),
                                DrillAttempt.best_gbps.is_not(None))
                         .order_by(DrillAttempt.best_gbps.desc()).limit(1)).first()


def summaries(col: Collection) -> dict[str, DrillSummary]:
    """Per drill: attempts, whether any passed, best throughput of a passing attempt (for the
    drill list, as personal_best)."""
    passed_best = case((DrillAttempt.passed.is_(True), DrillAttempt.best_gbps), else_=None)
    with col.db.session() as s:
        rows = s.execute(select(DrillAttempt.drill_id, func.count(), func.max(DrillAttempt.passed),
                                func.max(passed_best)).group_by(DrillAttempt.drill_id))
        return {d: DrillSummary(d, int(n), bool(solved), best) for d, n, solved, best in rows}
