#!/usr/bin/env bash
# H200 call 31 (session of 2026-11-28, late night; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call31.sh      (the device tool sets OUT)
# After call 30's changes (softmax_backward: two passes for many rows of 1025-4096 two-byte
# values too; rmsnorm: for 2049-4096; layernorm: rows of 4096 on 8 warps):
# 1. every case incl. gpu_cases of the three drills; 2. peers.py at the sizes reached.
# What happened (134 s): all three pass every case (summary_call31.txt); ../peers_h200/peers_call31{a,b}.md.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; W=/tmp/w31; mkdir -p $R $W; T0=$(date +%s)
for d in rmsnorm layernorm softmax_backward; do
  ( timeout 170 python3 -m studio.drills.cli run $d @solution --json --timeout 160 > $W/$d.json 2> $W/$d.stderr
    echo "$d rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt ) &
done
wait
python3 - $W > $R/summary.txt <<'PY'
import json, sys, pathlib
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    d = json.loads(f.read_text())
    cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
    print(f.stem, d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
PY
run_peers() {  # name, timeout, then peers.py arguments
  local name=$1 limit=$2; shift 2
  timeout $limit python3 bench/peers.py "$@" --runs 3 --rep-ms 15 --out $W/peers_$name.md > $W/peers_$name.log 2>&1
  echo "peers $name rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
  cp $W/peers_$name.json $R/ 2>/dev/null
}
run_peers call31a 120 --drills rmsnorm,layernorm --sweeps model_rows --dtypes bfloat16,float16 --budget-s 100 \
  --sizes 1024x4096,4096x4096,16384x4096
run_peers call31b 110 --drills softmax_backward --sweeps model_rows,attention_rows --dtypes bfloat16 --budget-s 90 \
  --sizes 1024x2048,4096x2048,16384x2048,1024x4096,4096x4096,16384x4096,32768x2048,65536x4096
tar czf $R/call31.tar.gz -C /tmp w31
