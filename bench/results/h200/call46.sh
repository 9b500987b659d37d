#!/usr/bin/env bash
# H200 call 46 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call46.sh      (the device tool sets OUT)
# After the last read of the change: the matmul solution's tile order moved into one jit helper
# (grouped_tile) and its SM count into the cached device query. Every case incl. gpu_cases, no timing.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh46 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 95 python3 -m studio.drills.cli run matmul @solution --json --timeout 90 > /tmp/matmul.json 2> $R/matmul.stderr
echo "matmul rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - /tmp/matmul.json > $R/summary.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("matmul", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), "flags", d.get("flags"), d.get("device"), bad[:1], d.get("error"))
PY
