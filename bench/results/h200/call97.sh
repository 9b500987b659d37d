#!/usr/bin/env bash
# H200 call 97 (session of 2026-11-29, sixth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call97.sh      (the device tool sets OUT)
# bench/launch_tuning.py int8_wo_matmul (peers, calls 58-60: 1 x 28672 x 8192 at 50% of copy bandwidth in bf16,
# 63% in fp16): the split-K kernel's tiles, warps, stages and dequantization, and the CUDA-core GEMV at M = 1;
# bf16 at 1 x 28672 x 8192 and 16 x 28672 x 8192, then fp16 at 1 x 28672 x 8192.
# What happened (122 s): bf16 dequantized by conversion (FAST=False), 128 x 128 on 4 warps, 3 stages: 111.3 ->
#   92.7 us at 1 x 28672 x 8192, 110.5 -> 89.5 at 16 rows; fp16 keeps the integer trick (87.0; conversion 105.5);
#   the CUDA-core GEMV 142.9-143.1 us.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh97 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R /tmp/lt; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
tune() {  # dtype shapes deadline
  left=$(( $3 - ($(date +%s)-T0) )); [ $left -lt 20 ] && { step "skip $1 $2" 0; return; }
  timeout $left python3 bench/launch_tuning.py --what int8_wo_matmul --dtype $1 --shapes $2 --rep-ms 10 \
    --out /tmp/lt/lt_int8_$1_call97.json > /tmp/lt.txt 2>&1; step "int8 $1 $2" $?
  grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/log.txt
}
tune bfloat16 1x28672x8192,16x28672x8192 220
tune float16 1x28672x8192 300
tar czf $R/lt_call97.tar.gz -C /tmp lt; step done 0
