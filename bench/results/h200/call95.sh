#!/usr/bin/env bash
# H200 call 95 (session of 2026-11-29, sixth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call95.sh      (the device tool sets OUT)
# 1. `studio-drill run prefix_sum @solution` on the GPU: few long rows back on reduce-then-scan after call 94, with
#    the new GPU case 2 x 4194305 float32;
# 2. bench/launch_tuning.py prefix_sum 64 x 262144 and 4 x 4194304 (float32, bf16): the look-back scan reading
#    16 or 32 predecessors at once (window) against call 94's one-at-a-time walk and reduce-then-scan.
# What happened (56 s): prefix_sum 26/26 on reduce-then-scan. Look-back with a window of 16: float32 46.0 / 52.1 us
#   against reduce-then-scan 54.5 / 54.0; bf16 31.5 at best against 29.5 (not taken for bf16).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh95 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R /tmp/lt; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 150 python3 -m studio.drills.cli run prefix_sum @solution --json --timeout 120 > /tmp/run.json 2> /tmp/run.err
step "run prefix_sum" $?
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
for DT in float32 bfloat16; do
  timeout 200 python3 bench/launch_tuning.py --what prefix_sum --dtype $DT --shapes 64x262144,4x4194304 --rep-ms 10 \
    --out /tmp/lt/lt_prefix_sum_${DT}_call95.json > /tmp/lt.txt 2>&1; step "prefix_sum $DT" $?
  grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/log.txt
done
tar czf $R/lt_call95.tar.gz -C /tmp lt; step done 0
