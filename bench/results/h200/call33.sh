#!/usr/bin/env bash
# H200 call 33 (session of 2026-11-28, late night; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call33.sh      (the device tool sets OUT)
# softmax after its rows of 8192 two-byte values went to 16 warps (call 30: Liger's one-row
# kernel was 1.5% ahead at 16384 x 8192 with 16 warps, level with 8): every case incl. gpu_cases,
# then peers.py at every size with 8192 columns, bf16 and fp16.
# What happened (99 s): softmax passes all 21 cases (summary_call33.txt); ../peers_h200/peers_call33.md.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 100 python3 -m studio.drills.cli run softmax @solution --json --timeout 90 > /tmp/softmax.json 2> $R/softmax.stderr
echo "softmax rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - /tmp/softmax.json > $R/summary.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("softmax", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
PY
timeout 230 python3 bench/peers.py --drills softmax --sweeps model_rows,attention_rows --dtypes bfloat16,float16 --runs 3 \
  --rep-ms 15 --budget-s 210 --sizes 1x8192,16x8192,128x8192,1024x8192,4096x8192,16384x8192,131072x8192 \
  --out /tmp/peers_call33.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; cp /tmp/peers_call33.json $R/
