#!/usr/bin/env bash
# Run every drill's reference solution on a GPU with timing, save the JSON, print a table.
#
#   PYTHONPATH=. STUDIO_HOME=/tmp/sh OUT=/tmp/out bash bench/drills_catalogue_gpu.sh [drill ...]
#
# One `studio.drills.cli run <id> @solution --bench --json` per drill (a fresh child
# process each; gpu_cases and the bench sweep run because a GPU is present). Each JSON
# lands in $OUT/<id>.json, stderr in $OUT/<id>.stderr. The table: drill, passed, best
# TFLOP/s (metric tflops) or best % of measured copy bandwidth (metric gbps), and the
# slowest speedup vs the torch baseline over the sweep.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH="${PYTHONPATH:-.}"
export STUDIO_HOME="${STUDIO_HOME:-/tmp/sh}"
OUT="${OUT:-bench/out/drills_catalogue}"
TIMEOUT="${DRILL_TIMEOUT:-1800}"
mkdir -p "$OUT" "$STUDIO_HOME"

if [ "$#" -gt 0 ]; then
  DRILLS=("$@")
else
  mapfile -t DRILLS < <(python -m studio.drills.cli list --json | python -c \
    'import json,sys; print("\n".join(d["id"] for d in json.load(sys.stdin) if "error" not in d))')
fi

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
for id in "${DRILLS[@]}"; do
  echo "== $id" >&2
  start=$(date +%s)
  python -m studio.drills.cli run "$id" @solution --bench --json --timeout "$TIMEOUT" \
    >"$OUT/$id.json" 2>"$OUT/$id.stderr"
  echo "   exit $? in $(( $(date +%s) - start )) s" >&2
done

python - "$OUT" "${DRILLS[@]}" <<'PY'
import json, sys
from pathlib import Path

from studio.drills.catalog import get_drill

out, drills = Path(sys.argv[1]), sys.argv[2:]
rows = [("drill", "passed", "cases", "best", "at", "min speedup", "flags")]
for drill in drills:
    try:
        doc = json.loads((out / f"{drill}.json").read_text())
    except Exception as exc:  # noqa: BLE001
        rows.append((drill, "no JSON", "", "", "", "", type(exc).__name__))
        continue
    cases = doc.get("cases") or []
    all_points = (doc.get("bench") or {}).get("points") or []
    points = [p for p in all_points if p.get("passed")]
    metric = get_drill(drill).metric
    best = at = speed = ""
    if points:
        if metric == "tflops":
            top = max(points, key=lambda p: p.get("tflops") or 0)
            best = f"{top['tflops']:.0f} TFLOP/s"
        else:
            top = max(points, key=lambda p: p.get("pct_of_peak") or 0)
            best = (f"{top['pct_of_peak']:.0f}% peak" if top.get("pct_of_peak") is not None
                    else f"{top.get('gbps', 0):.0f} GB/s")
        at = f"{top.get('size')} {top.get('dtype')}"
        speed = f"{min(p.get('speedup') or 0 for p in points):.2f}x"
    failed_points = len(all_points) - len(points)
    flags = ",".join(str(f) for f in doc.get("flags") or [])
    if doc.get("error"):
        flags = (flags + "," if flags else "") + str(doc["error"].get("kind"))
    if not (doc.get("bench") or {}).get("available", True):
        flags = (flags + "," if flags else "") + "not timed"
    if failed_points:
        flags = (flags + "," if flags else "") + f"{failed_points} bench points failed"
    rows.append((drill, str(doc.get("status") == "passed"),
                 f"{sum(1 for c in cases if c.get('passed'))}/{len(cases)}", best, at, speed, flags))
widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
for r in rows:
    print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
PY
