#!/usr/bin/env bash
# H200 call 96 (session of 2026-11-29, sixth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call96.sh      (the device tool sets OUT)
# After call 95: few long float32 rows of prefix_sum take the look-back scan (4096-wide chunks, 4 warps, a window
# of 16 predecessors).
# 1. `studio-drill run prefix_sum @solution` on the GPU (every case; 2 x 4194305 and 8 x 100003 float32 take it);
# 2. bench/peers.py prefix_sum float32 (its drill.yaml bench sizes, three protocols).
# What happened (59 s): prefix_sum 26/26 passed twice with the windowed look-back for float32; peers float32 64 x
#   262144 46.2 us (68% of copy, 2.1x torch.compile), 4 x 4194304 52.7 (60%), 4096 x 16384 139.5 (90%).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh96 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for i in 1 2; do   # twice: a look-back that waits on the wrong chunk may hang or misadd only now and then
  timeout 150 python3 -m studio.drills.cli run prefix_sum @solution --json --timeout 120 > /tmp/run.json 2> /tmp/run.err
  step "run prefix_sum $i" $?
  python3 - >> $R/log.txt <<'PY'
import json
try:
    r = json.load(open("/tmp/run.json"))
except Exception as e:
    print("NO JSON", e, open("/tmp/run.err").read()[-800:]); raise SystemExit
cases = r.get("cases", [])
print("prefix_sum", r.get("status"), f"{sum(bool(c.get('passed')) for c in cases)}/{len(cases)}")
for c in cases:
    if not c.get("passed"):
        print("  FAILED", c.get("name"), str(c.get("error"))[:300])
PY
done
timeout 200 python3 bench/peers.py --drills prefix_sum --dtypes float32 --runs 3 --rep-ms 15 --budget-s 180 \
  --out /tmp/peers_call96.md > $R/peers_log.txt 2>&1; step peers $?
cp /tmp/peers_call96.json /tmp/peers_call96.md $R/ 2>/dev/null; step done 0
