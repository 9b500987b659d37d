#!/usr/bin/env bash
# H200 call 29 (session of 2026-11-28, late night; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call29.sh      (the device tool sets OUT)
# peers.py at the sizes call 27's changes reach in swiglu (the flat kernel: contiguous inputs of
# 2^23+ outputs) and row_sum (launch shapes for many rows of 2048-4095 and 8192-16384).
# What happened (97 s): ../peers_h200/peers_call29{a,b}.md; row_sum's 8192-16384 rule was 0.78-0.87x
# under CUDA-graph replay at 1024 rows and was taken out again.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; W=/tmp/w29; mkdir -p $R $W; T0=$(date +%s)
run_peers() {  # name, timeout, then peers.py arguments
  local name=$1 limit=$2; shift 2
  timeout $limit python3 bench/peers.py "$@" --runs 3 --rep-ms 15 --out $W/peers_$name.md > $W/peers_$name.log 2>&1
  echo "peers $name rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
  cp $W/peers_$name.json $R/ 2>/dev/null
}
run_peers call29a 200 --drills swiglu --sweeps model_rows,long_rows --dtypes bfloat16 --budget-s 180 \
  --sizes 1024x8192,1024x16384,4096x2048,4096x4096,4096x8192,4096x16384,16384x512,16384x1024,16384x2048,16384x4096,16384x8192,16384x16384,1024x32768,256x131072
run_peers call29b 120 --drills row_sum --sweeps model_rows --dtypes bfloat16 --budget-s 100 \
  --sizes 1024x2048,4096x2048,16384x2048,1024x8192,4096x8192,16384x8192,1024x16384,4096x16384,16384x16384
tar czf $R/call29.tar.gz -C /tmp w29
