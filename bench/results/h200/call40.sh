#!/usr/bin/env bash
# H200 call 40 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call40.sh      (the device tool sets OUT)
# Call 39 (Nsight Compute, caches flushed): at 1024^3 cuBLAS runs 128 x 64 tiles on 128 CTAs with
# an 8-deep K pipeline (7.3 us); the solution's autotuner picked 128 x 128 tiles on 4 warps, 4 stages:
# 64 CTAs for 132 SMs (9.4 us). launch_tuning.py times deep-pipeline tiles that give every SM one,
# pointer tiles and TMA, at 1024^3 (bf16, fp16) and 2048^3 (bf16), engine and CUDA-graph replay.
# What happened (45 s): ../launch_tuning_call40_*.json, launch_tuning_best_call40.txt. Best at 1024^3: TMA
# 64 x 128 x 128, 4 warps, 4 stages: 9.0 (bf16) / 8.6 (fp16) us, cudagraph 5.2 / 5.4 (torch 8.2; solution 10.3 / 9.9).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
V="deep,tma bm=64 bn=128,tma bm=128 bn=64,tiled bm=128 bn=128 bk=64 w=4 s=4,tiled bm=64 bn=128 bk=64 w=4,tiled bm=128 bn=64 bk=64 w=4"
timeout 200 python3 bench/launch_tuning.py --what matmul --shapes 1024x1024x1024,2048x2048x2048 --variants "$V" \
  --rep-ms 10 --budget-s 180 --out $R/launch_tuning_call40_bf16.json > $R/tuning_bf16_log.txt 2>&1
echo "bf16 rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 150 python3 bench/launch_tuning.py --what matmul --dtype float16 --shapes 1024x1024x1024 --variants "$V" \
  --rep-ms 10 --budget-s 120 --out $R/launch_tuning_call40_fp16.json > $R/tuning_fp16_log.txt 2>&1
echo "fp16 rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
grep -hE "^(SHAPE|BEST|SKIP)" $R/tuning_bf16_log.txt $R/tuning_fp16_log.txt > $R/best.txt
