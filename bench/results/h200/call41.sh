#!/usr/bin/env bash
# H200 call 41 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call41.sh      (the device tool sets OUT)
# After call 40: matmul's TMA path starts at M*N*K >= 2^30 (was 2^34) and its autotuner also tries
# the tiles that won at 1024^3 (64 x 128 with 128-deep K steps; a tile per SM). 1. every case incl. the
# gpu_cases (a new one, 1100 x 1032 x 1064 fp16, reaches the path below 2^34); 2. peers.py for matmul
# at its bench sizes, bf16 and fp16, three protocols.
# What happened (139 s): 20 of 20 cases, no flags (summary_call41.txt); ../peers_h200/peers_call41.md: fp16
# 1024^3 at 8.9 us (torch 9.0), bf16 at 16.6 (the autotuner's pick; call 42).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 200 python3 -m studio.drills.cli run matmul @solution --json --timeout 190 > /tmp/matmul.json 2> $R/matmul.stderr
echo "matmul rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - /tmp/matmul.json > $R/summary.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("matmul", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), "flags", d.get("flags"), d.get("device"), bad[:1], d.get("error"))
for c in cases:
    print(" ", c.get("name"), c.get("passed"), c.get("max_abs_err", c.get("error", ""))) 
PY
timeout 360 python3 bench/peers.py --drills matmul --dtypes bfloat16,float16 --runs 3 --rep-ms 20 --budget-s 340 \
  --out /tmp/peers_call41.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; cp /tmp/peers_call41.json /tmp/peers_call41.md $R/
