"""GPU check of the judge/worker separation (issue: drill verdicts a submission cannot forge).

    STUDIO_HOME=/tmp/sh PYTHONPATH=. python bench/drills_isolation_gpu.py --out DIR [--drills a,b]

Runs, through the real DrillRunner on the GPU, and records in DIR/drills_isolation_gpu.json
(with a summary table in DIR/drills_isolation_gpu.md):
1. every catalogue drill's reference solution with --bench: status, flags, and per point
   the kernel's median event time, the median host time of one device-synchronised call
   from the escape probe (wall_ms) and their ratio, % of copy bandwidth, speedup over torch, and any point the
   judge marked invalid (an honest solution must have none);
2. every cheat in tests/drills/cheats (GPU-only ones included) with --bench: its status and
   flags (none may pass);
3. every bad kernel in tests/drills/bad_kernels, the GPU-only illegal-address one included;
4. the unusual-but-honest fixtures in tests/drills/honest with --bench (all must pass);
5. the cost of the separation: the judge logs, per run, the median round trip of a checked
   call less the time the solution itself took (outside any timed region).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from studio.drills.catalog import load_catalog  # noqa: E402
from studio.drills.events import LogMessage  # noqa: E402
from studio.drills.runner import DrillRunner, RunRequest  # noqa: E402

CHEATS = REPO / "tests" / "drills" / "cheats"
BAD = REPO / "tests" / "drills" / "bad_kernels"
HONEST = REPO / "tests" / "drills" / "honest"
HONEST_DRILL = {"softmax_two_kernels": "softmax", "softmax_kernel_cache": "softmax",
                "layernorm_welford": "layernorm"}
_OVERHEAD = re.compile(r"separation overhead: median ([0-9.]+) ms")


def run(drill: str, solution: str, bench: bool, timeout: float = 900) -> dict:
    logs: list[str] = []
    started = time.monotonic()
    result = DrillRunner().run(
        RunRequest(drill=drill, solution=solution, bench=bench, timeout_s=timeout),
        on_event=lambda e: logs.append(e.message) if isinstance(e, LogMessage) else None)
    data = result.to_dict()
    overhead = [float(m.group(1)) for m in map(_OVERHEAD.search, logs) if m]
    return {
        "drill": drill, "file": os.path.relpath(str(result.file), REPO), "status": result.status,
        "flags": result.flag_names(), "flag_details": data["flag_details"],
        "error": result.error.message if result.error else None,
        "failed_cases": [(c.name, c.error) for c in result.cases if not c.passed],
        "cases": len(result.cases), "device": result.device, "versions": result.versions,
        "overhead_ms": overhead[0] if overhead else None,
        "seconds": round(time.monotonic() - started, 1),
        "points": [{
            "size": p.size, "dtype": p.dtype, "passed": p.passed, "invalid": p.invalid,
            "ms": p.ms, "wall_ms": p.wall_ms, "ratio": (p.ms / p.wall_ms) if p.ms and p.wall_ms else None,
            "pct_of_peak": p.pct_of_peak, "speedup": p.speedup, "tflops": p.tflops, "error": p.error,
        } for p in result.bench.points],
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--drills", default="")
    parser.add_argument("--parts", default="catalogue,cheats,bad,honest")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    parts = set(args.parts.split(","))
    wanted = [d for d in args.drills.split(",") if d]
    report: dict = {"machine": platform.node(), "python": platform.python_version(),
                    "catalogue": [], "cheats": [], "bad": [], "honest": []}

    def save() -> None:
        (out / "drills_isolation_gpu.json").write_text(json.dumps(report, indent=1))

    if "catalogue" in parts:
        for spec in load_catalog():
            if spec.ok and (not wanted or spec.id in wanted):
                report["catalogue"].append(run(spec.id, "@solution", bench=True))
                print(json.dumps({k: report["catalogue"][-1][k] for k in
                                  ("drill", "status", "flags", "seconds", "overhead_ms")}), flush=True)
                save()
    if "cheats" in parts:
        for path in sorted(CHEATS.glob("*.py")):
            if not path.stem.startswith("_") and path.stem != "memory_hog":
                report["cheats"].append(run("softmax", str(path), bench=True, timeout=300))
                print(path.stem, report["cheats"][-1]["status"], report["cheats"][-1]["flags"], flush=True)
                save()
    if "bad" in parts:
        for path in sorted(BAD.glob("*.py")):
            drill = next((d for d in ("vector_add", "layernorm", "rmsnorm") if path.stem.startswith(d)),
                         "softmax")
            if path.stem == "unwritten_output":
                drill = "layernorm"
            timeout = 20 if path.stem in ("hangs", "kernel_spins", "leaves_grandchild") else 300
            report["bad"].append(run(drill, str(path), bench=False, timeout=timeout))
            print(path.stem, report["bad"][-1]["status"], report["bad"][-1]["flags"], flush=True)
            save()
    if "honest" in parts:
        for stem, drill in HONEST_DRILL.items():
            report["honest"].append(run(drill, str(HONEST / f"{stem}.py"), bench=True))
            print(stem, report["honest"][-1]["status"], report["honest"][-1]["flags"], flush=True)
            save()
    save()
    (out / "drills_isolation_gpu.md").write_text(summary(report))
    print(summary(report))
    return 0


def summary(report: dict) -> str:
    lines = ["| drill | status | flags | points | invalid | event/host ratio (min-max) | "
             "% of copy (max) | speedup (min) | overhead ms/call |", "|---|---|---|---|---|---|---|---|---|"]
    for r in report["catalogue"] + report["honest"]:
        pts = [p for p in r["points"] if p["ms"]]
        ratios = [p["ratio"] for p in pts if p["ratio"]]
        pct = [p["pct_of_peak"] for p in pts if p["pct_of_peak"]]
        speed = [p["speedup"] for p in pts if p["speedup"]]
        lines.append(
            f"| {r['drill']} ({Path(r['file']).stem}) | {r['status']} | {', '.join(r['flags']) or '-'} | "
            f"{len(r['points'])} | {sum(1 for p in r['points'] if p['invalid'])} | "
            f"{min(ratios):.2f}-{max(ratios):.2f} | " if ratios else
            f"| {r['drill']} ({Path(r['file']).stem}) | {r['status']} | {', '.join(r['flags']) or '-'} | "
            f"{len(r['points'])} | - | - | ")
        lines[-1] += (f"{max(pct):.1f} | " if pct else "- | ") + (f"{min(speed):.2f} | " if speed else "- | ") \
            + (f"{r['overhead_ms']:.2f} |" if r["overhead_ms"] is not None else "- |")
    lines += ["", "| cheat / bad kernel | status | flags | first problem |", "|---|---|---|---|"]
    for r in report["cheats"] + report["bad"]:
        problem = (r["failed_cases"][0][1] if r["failed_cases"] else r["error"]) or ""
        invalid = next((p["invalid"] for p in r["points"] if p["invalid"]), None)
        lines.append(f"| {Path(r['file']).stem} | {r['status']} | {', '.join(r['flags']) or '-'} | "
                     f"{(invalid or problem)[:140].replace('|', '/')} |")
    overheads = [r["overhead_ms"] for r in report["catalogue"] if r["overhead_ms"] is not None]
    if overheads:
        lines += ["", f"Separation overhead per checked call (median over drills): "
                      f"{statistics.median(overheads):.2f} ms"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
