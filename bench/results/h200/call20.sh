#!/usr/bin/env bash
# H200 call 20 (session of 2026-11-28 night; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call20.sh      (the device tool sets OUT)
# After call 19: softmax, rmsnorm and layernorm launch rows of 512 two-byte values as 2 rows
# on 1 warp (was 16 rows on 16 warps). 1. the three solutions against every case incl.
# gpu_cases; 2. peers.py at hidden 512 (model_rows, bf16 and fp16, three protocols).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
for d in softmax rmsnorm layernorm; do
  ( timeout 150 python3 -m studio.drills.cli run $d @solution --json --timeout 140 > $R/$d.json 2> $R/$d.stderr
    echo "$d rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt ) &
done
wait
python3 - $R > $R/summary.txt <<'PY'
import json, sys, pathlib
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    d = json.loads(f.read_text())
    cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
    print(f.stem, d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
PY
timeout 300 python3 bench/peers.py --drills softmax,rmsnorm,layernorm --sweeps model_rows \
  --sizes 1024x512,4096x512,16384x512 --dtypes bfloat16,float16 \
  --runs 3 --rep-ms 15 --budget-s 260 --out $R/peers_call20.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
