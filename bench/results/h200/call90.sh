#!/usr/bin/env bash
# H200 call 90 (session of 2026-11-29, fifth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call90.sh      (the device tool sets OUT)
# causal_conv1d reads at 55-60% of copy bandwidth in bf16 / fp16 and 78-81% in float32 at its large bench sizes
# (peers, calls 55-85): each of the K shifted window loads is misaligned, so every element is its own scalar load.
# bench/launch_tuning.py --what causal_conv1d --variants vec: the solution as it is against causal_conv1d_vec_kernel
# (time steps in groups of four: two aligned vector loads a group, the windows picked lane by lane in registers) at
# 30 launches, each checked first; bf16 at 8 x 4096 x 8192 and 4 x 4096 x 2048, float32 at 8 x 4096 x 8192.
# What happened (64 s): the vectorised kernel at 2 x 1024 on 4 warps the fastest in bf16 at both shapes (8 x 4096 x 8192
# 418.4 -> 291.8 us, 4 x 4096 x 2048 58.1 -> 39.8) and within 0.6% of the fastest in float32 (620.3 -> 506.8; 2 x 1024
# on 8 warps 503.7). Tiles of 8-16 channels were slower than the solution's shifted loads (lt_call90.tar.gz).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh90 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R /tmp/lt; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for W in bfloat16:8x4096x8192,4x4096x2048 float32:8x4096x8192; do
  timeout 200 python3 bench/launch_tuning.py --what causal_conv1d --dtype ${W%%:*} --shapes ${W#*:} --variants vec \
    --rep-ms 10 --out /tmp/lt/lt_causal_conv1d_${W%%:*}_call90.json > /tmp/lt.txt 2>&1; step ${W%%:*} $?
  grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/best_call90.txt
done
tar czf $R/lt_call90.tar.gz -C /tmp lt; step done 0
