#!/usr/bin/env bash
# H200 call 28 (session of 2026-11-28, late night; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call28.sh      (the device tool sets OUT)
# After taking call 27's Inductor-like kernels into the solutions (rmsnorm, layernorm,
# softmax_backward: two passes over many rows of 4097-32768 two-byte values; swiglu: the flat
# kernel for 2^23+ contiguous outputs; row_sum: launch shapes for many rows):
# 1. every case incl. gpu_cases (new ones reach each new path) of the five drills;
# 2. peers.py at the sizes the change reaches, rmsnorm / layernorm / softmax_backward.
# Peers' .json, the summary and the log come back; the rest in one archive (a call returns
# at most 8 files; the .md tables are made again from the .json with peers.py --merge).
# What happened (173 s): all five pass every case (summary_call28.txt); peers in ../peers_h200/peers_call28{a,b,c}.md.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; W=/tmp/w28; mkdir -p $R $W; T0=$(date +%s)
for d in rmsnorm layernorm softmax_backward swiglu row_sum; do
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
run_peers call28a 170 --drills rmsnorm --sweeps model_rows,long_rows --dtypes bfloat16,float16 --budget-s 150 \
  --sizes 1024x8192,4096x8192,16384x8192,1024x16384,4096x16384,16384x16384,1024x32768,256x131072
run_peers call28b 80 --drills layernorm --sweeps model_rows --dtypes bfloat16,float16 --budget-s 60 \
  --sizes 1024x16384,4096x16384,16384x16384
run_peers call28c 80 --drills softmax_backward --sweeps model_rows --dtypes bfloat16 --budget-s 60 \
  --sizes 1024x8192,4096x8192,16384x8192,1024x16384,4096x16384,16384x16384
tar czf $R/call28.tar.gz -C /tmp w28
