#!/usr/bin/env bash
# H200 call 54 (session of 2026-11-29; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call54.sh      (the device tool sets OUT)
# flash_attention: head_dim 64 up to 1024 tokens now takes the one-partition 64 x 64 tile (call 53:
# 96 against 103 us at 4 x 32 x 1024 x 64). 1. the drill's cases as a user runs them (s1024-d64 takes
# that path); 2. peers.py at 4 x 32 x 1024 x 64, bf16 and fp16.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh54 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 100 python3 -m studio.drills.cli run flash_attention @solution --json --timeout 90 > /tmp/fa.json 2> $R/fa.stderr
echo "fa rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - /tmp/fa.json > $R/summary.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("flash_attention", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), "flags", d.get("flags"), d.get("device"), d.get("error"))
for c in cases:
    print(" ", c.get("name"), c.get("passed"), c.get("max_abs_err", c.get("error", "")))
PY
timeout 150 python3 bench/peers.py --drills flash_attention --sizes 4x32x1024x64,4x32x1024x64x1 --dtypes bfloat16,float16 \
  --runs 3 --rep-ms 20 --budget-s 130 --out /tmp/peers_call54.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; cp /tmp/peers_call54.json /tmp/peers_call54.md $R/
