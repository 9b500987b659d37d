#!/usr/bin/env bash
# H200 call 21 (session of 2026-11-28 night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call21.sh      (the device tool sets OUT)
# layernorm and rmsnorm at 1-128 tokens sat at 0.93-0.98x Liger (5-8 us, 0.2-0.4 us apart).
# Their kernels load weight (and bias) after the row's reductions; Liger's load them with x.
# bench/long_rows_tuning.py --no-looped now also times the fused kernel with the weights
# loaded first (WB_FIRST / W_FIRST), at decode shapes and two large ones.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 300 python3 bench/long_rows_tuning.py --no-looped --drills layernorm,rmsnorm \
  --shapes 1x4096,16x8192,128x4096,1x16384,128x16384,4096x4096,4096x16384 --dtypes bfloat16 --rep-ms 10 \
  --out $R/weights_first_call21.json > $R/weights_first_log.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
grep "^BEST" $R/weights_first_log.txt > $R/weights_first_best.txt
