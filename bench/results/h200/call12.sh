#!/usr/bin/env bash
# H200 call 12 (session of 2026-11-28 evening; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call12.sh      (the device tool sets OUT)
# After call 11: swiglu's launch shape is 4096 outputs over 16 warps (was 8192 over 8).
# 1. the swiglu solution against every case incl. gpu_cases; 2. peers.py for swiglu (bf16,
# model and long rows); 3. peers.py for softmax, rmsnorm, layernorm in float16 over
# model_rows (the first fp16 tables).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=.:/tmp/site STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
timeout 120 python3 -m studio.drills.cli run swiglu @solution --json --timeout 110 > $R/swiglu.json 2> $R/swiglu.stderr
echo "swiglu rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - $R > $R/summary.txt <<'PY'
import json, sys, pathlib
for f in sorted(pathlib.Path(sys.argv[1]).glob("swiglu.json")):
    d = json.loads(f.read_text())
    cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
    print(f.stem, d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
PY
timeout 200 python3 bench/peers.py --drills swiglu --dtypes bfloat16 \
  --runs 3 --rep-ms 20 --budget-s 170 --out $R/peers_call12_swiglu.md > $R/peers_swiglu_log.txt 2>&1
echo "peers swiglu rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 230 python3 bench/peers.py --drills softmax,rmsnorm,layernorm --sweeps model_rows --dtypes float16 \
  --runs 3 --rep-ms 20 --budget-s 200 --out $R/peers_call12_fp16.md > $R/peers_fp16_log.txt 2>&1
echo "peers fp16 rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
cd $OUT && tar czf h200_call12.tgz r && rm -rf r
