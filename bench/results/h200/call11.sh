#!/usr/bin/env bash
# H200 call 11 (session of 2026-11-28 evening; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call11.sh      (the device tool sets OUT)
# After call 10: matmul's solution has a skinny path (M <= 64: split-K when N alone gives
# fewer programs than SMs). 1. the matmul solution against every case incl. gpu_cases;
# 2. launch_tuning for swiglu again (call 10's tolerance refused every variant) and the
# attention tiles; 3. peers.py for matmul (bench sizes), bf16.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=.:/tmp/site STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
timeout 150 python3 -m studio.drills.cli run matmul @solution --json --timeout 140 > $R/matmul.json 2> $R/matmul.stderr
echo "matmul rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 230 python3 bench/launch_tuning.py --what swiglu,flash_attention --rep-ms 15 --budget-s 150 \
  --out $R/launch_tuning_call11.json > $R/launch_tuning_log.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - $R > $R/summary.txt <<'PY'
import json, sys, pathlib
for f in sorted(pathlib.Path(sys.argv[1]).glob("matmul.json")):
    d = json.loads(f.read_text())
    cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
    print(f.stem, d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
PY
grep -E "^(SHAPE|BEST|SKIP)" $R/launch_tuning_log.txt > $R/launch_tuning_best.txt
timeout 150 python3 bench/peers.py --drills matmul --dtypes bfloat16 \
  --runs 3 --rep-ms 20 --budget-s 120 --out $R/peers_call11.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
cd $OUT && tar czf h200_call11.tgz r && rm -rf r
