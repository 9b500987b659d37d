#!/usr/bin/env bash
# H200 call 10 (session of 2026-11-28 evening; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call10.sh      (the device tool sets OUT)
# 1. bench/launch_tuning.py: swiglu launch shapes and an approximate division; matmul split-K
#    for decode GEMMs (M <= 64), bf16.
# 2. bench/peers.py for the three row drills without tables yet: softmax_backward, row_sum,
#    bias_gelu (bf16, all their sweeps).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=.:/tmp/site STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt 2>&1
timeout 260 python3 bench/launch_tuning.py --what swiglu,matmul --rep-ms 15 --budget-s 230 \
  --out $R/launch_tuning_call10.json > $R/launch_tuning_log.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
grep -E "^(SHAPE|BEST|SKIP)" $R/launch_tuning_log.txt > $R/launch_tuning_best.txt
timeout 290 python3 bench/peers.py --drills softmax_backward,row_sum,bias_gelu --dtypes bfloat16 \
  --runs 3 --rep-ms 20 --budget-s 250 --out $R/peers_call10.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
cd $OUT && tar czf h200_call10.tgz r && rm -rf r
