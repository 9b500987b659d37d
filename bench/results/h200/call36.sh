#!/usr/bin/env bash
# H200 call 36 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call36.sh      (the device tool sets OUT)
# After call 35: matmul's solution takes a persistent TMA kernel (host-built descriptors,
# autotuned tiles) on Hopper for fp16/bf16 products of M*N*K >= 2^34 with 16-byte aligned rows.
# 1. every case incl. the gpu_cases (three new ones reach the TMA path with ragged edges, B^T and
# padded rows of A); 2. peers.py for matmul at its bench sizes, bf16 and fp16, three protocols.
# What happened (149 s): all 19 cases passed, yet the run's status was "failed" (its JSON was not
# kept; call 37 says why); summary_call36.txt; ../peers_h200/peers_call36.md.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 200 python3 -m studio.drills.cli run matmul @solution --json --timeout 190 > /tmp/matmul.json 2> $R/matmul.stderr
echo "matmul rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - /tmp/matmul.json > $R/summary.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("matmul", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
for c in cases:
    print(" ", c.get("name"), c.get("passed"), c.get("max_abs_err", c.get("error", ""))) 
PY
timeout 360 python3 bench/peers.py --drills matmul --dtypes bfloat16,float16 --runs 3 --rep-ms 20 --budget-s 340 \
  --out /tmp/peers_call36.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; cp /tmp/peers_call36.json /tmp/peers_call36.md $R/
