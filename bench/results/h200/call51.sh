#!/usr/bin/env bash
# H200 call 51 (session of 2026-11-29; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call51.sh      (the device tool sets OUT)
# 1. bench/cheats_gpu_check.py: every cheat, honest and bad-kernel fixture judged on the GPU (not run in
#    full since call 13; the provenance check now follows TMA descriptors, and flash_attention's
#    reference now launches Gluon kernels);
# 2. flash_attention, head_dim 64 causal (0.90-0.93x the best peer in call 50): other tiles of both
#    Hopper kernels against the solution's 64 x 64 one-partition tile.
# What happened (186 s): 64 of 65 verdicts as expected (cheats_gpu_check_call51.txt): every cheat caught,
# the honest fixtures (incl. the TMA-descriptor softmax) pass with no flag; the bad kernel
# fused_adamw_l2_decay failed its weight_decay=0 case, which it should pass (a fixture bug: 1 - beta2
# computed in float32 on the device; fixed, re-run in call 52). head_dim 64 causal: the solution's
# 64 x 64 one-partition tile stays best (679 us; 64 x 128: 710; 64 x 64 3 stages: 692; two groups
# 700 and 835; torch 634).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh51 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 250 python3 bench/cheats_gpu_check.py --jobs 6 --out $R/cheats_gpu_check_call51.json > $R/cheats_gpu_check_call51.txt 2>&1
echo "cheats rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 120 python3 bench/launch_tuning.py --what flash_attention \
  --variants "gluon bm=64 bn=128 st=3 w=4,gluon bm=64 bn=64 st=3 w=4,gluon-ws bm=128 bn=64 st=4 groups=2,gluon-ws bm=128 bn=128 st=2 groups=2" \
  --shapes 4x32x4096x64x1 --rep-ms 15 --out $R/launch_tuning_call51.json > $R/fa_tuning_log.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
