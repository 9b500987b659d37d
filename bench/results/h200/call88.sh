#!/usr/bin/env bash
# H200 call 88 (session of 2026-11-29, fifth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call88.sh      (the device tool sets OUT)
# bench/launch_tuning.py, engine protocol and CUDA-graph replay, float32 and bf16:
# 1. fused_adamw at 2^20-2^26 parameters (call 87's run checked every variant against inputs its torch timing had
#    already stepped: all "wrong"; torch is now timed on copies);
# 2. transpose at 1024 x 1024, 4096 x 4096, 4096 x 16384 (call 85 float32: 0.95-0.97x torch.compile);
# 3. prefix_sum at 4096 x 256 and 4096 x 1024 (call 85 float32: 0.94-0.98x torch.compile).
# What happened (105 s): fused_adamw 1024 on 4 warps within 1% of the fastest of 17 at every size in fp32 and bf16
# (2^26 fp32 452.2 -> 440.9 us, bf16 419.3 -> 409.7). transpose fp32 64 x 64 on 8 warps within 0.3 us of the best
# (1024 x 1024 6.7 -> 6.3); bf16 on 4 or 8 level. prefix_sum fp32: the solution fastest at 4096 x 256, 0.4 us off
# the best at 4096 x 1024 (not changed); bf16 4096 x 1024 read as wrong against torch's own bf16 cumsum (its
# rounding, not the kernel's: the drill's float64 check passes).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh88 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R /tmp/lt; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for W in fused_adamw transpose prefix_sum; do
  for DT in float32 bfloat16; do
    left=$(( 560 - ($(date +%s)-T0) )); [ $left -lt 30 ] && { step "skip $W $DT" 0; continue; }
    timeout $left python3 bench/launch_tuning.py --what $W --dtype $DT --rep-ms 10 \
      --out /tmp/lt/lt_${W}_${DT}_call88.json > /tmp/lt.txt 2>&1; step ${W}_$DT $?
    grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/best_call88.txt
  done
done
tar czf $R/lt_call88.tar.gz -C /tmp lt; step done 0
