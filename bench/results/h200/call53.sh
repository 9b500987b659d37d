#!/usr/bin/env bash
# H200 call 53 (session of 2026-11-29; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call53.sh      (the device tool sets OUT)
# flash_attention at 4 x 32 x 1024 x 64 (the bench sweep's short sequence): 0.82x the best peer under
# the engine's protocol in call 52. Its 192-row tiles leave the sixth tile of each head two-thirds
# empty (1024 = 5 x 192 + 64). The Hopper tiles at this shape, causal and not.
# What happened (42 s): launch_tuning_call53.json, engine us. Non-causal: the one-partition 64 x 128 (3
# stages) and 64 x 64 tiles 96.1 and 96.3, three groups 103.6 (the solution's), two groups 104.5, torch
# 83.5. Causal: the solution's 64 x 64 tile 61.8-62.7, everything else 69-112, torch 61.3.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh53 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 150 python3 bench/launch_tuning.py --what flash_attention \
  --variants "gluon bm=64 bn=64 st=4 w=4,gluon bm=64 bn=128 st=3 w=4,gluon bm=128 bn=128 st=2 w=8,gluon-ws" \
  --shapes 4x32x1024x64,4x32x1024x64x1 --rep-ms 15 --out $R/launch_tuning_call53.json > $R/fa_tuning_log.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
