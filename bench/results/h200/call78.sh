#!/usr/bin/env bash
# H200 call 78 (session of 2026-11-29, fourth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call78.sh      (the device tool sets OUT)
# The first float32 tables of four row drills (call 77): bias_gelu 0.93-0.95x torch.compile at 4096 x 4096 and up, swiglu
# 0.96-0.99x, row_sum 0.96-0.99x; their float32 launches date from the H100 sweep. bench/launch_tuning.py for the
# three in float32 at 4096 x 4096 and 16384 x 4096 (every launch shape its variants list, each checked first).
# What happened (146 s): float32 bias_gelu best one row of 1024 on 4 warps and the like (34.4-34.8 / 131.6-133.6 us against
# 36.3 / 136.1 as is); swiglu's flat kernel at 1024 on 8 warps 46.8 / 183.6-183.8 (as is 49.1 / 187.7); row_sum within
# 1% of its launch (19.3 / 62.7 against 19.6 / 63.4).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh78 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for d in bias_gelu swiglu row_sum; do
  timeout 170 python3 bench/launch_tuning.py --what $d --dtype float32 --shapes 4096x4096,16384x4096 --rep-ms 8 \
    --budget-s 120 --out $R/fp32_tuning_${d}_call78.json > $R/fp32_tuning_${d}_call78.txt 2>&1; step $d $?
done
grep -h "^BEST\|^SHAPE" $R/fp32_tuning_*_call78.txt >> $R/log.txt
step done 0
