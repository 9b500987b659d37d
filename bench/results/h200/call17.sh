#!/usr/bin/env bash
# H200 call 17 (session of 2026-11-28 night; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call17.sh      (the device tool sets OUT)
# 1. topk_rows_ties_high_index, rebuilt from the solution after calls 15-16 (the old fixture, one
#    program over a whole 128K-column row, did not finish on the GPU within 150 s);
# 2. peers.py for row_sum and bias_gelu on model_rows (bf16, three protocols): their few-rows
#    launch changed after call 10, whose figures the merged table still showed.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 130 python3 bench/cheats_gpu_check.py --jobs 1 --out $R/cheats_gpu_check_call17.json \
  --only topk_rows_ties_high_index > $R/cheats_gpu_check_call17.txt 2>&1
echo "bad kernel rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 300 python3 bench/peers.py --drills row_sum,bias_gelu --sweeps model_rows --dtypes bfloat16 \
  --runs 3 --rep-ms 15 --budget-s 250 --out $R/peers_call17.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
