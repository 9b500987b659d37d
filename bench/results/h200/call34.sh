#!/usr/bin/env bash
# H200 call 34 (session of 2026-11-28, late night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call34.sh      (the device tool sets OUT)
# matmul at 1024^3 sits at 0.81x cuBLAS (0.67x under CUDA-graph replay) and no tile of the
# solution's pointer-tile kernel was more than 3% ahead (call 24). bench/matmul_variants.py: the
# same product through TMA tensor descriptors, one tile a program and persistent, against the
# solution, at 1024^3, 2048^3 and 4096^3.
# What happened (27 s): ../launch_tuning_call34.json; see ../launch_tuning.md (matmul through TMA
# descriptors). Nothing taken into the solution.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 200 python3 bench/launch_tuning.py --what matmul --shapes 1024x1024x1024,2048x2048x2048,4096x4096x4096 \
  --variants "tma" --rep-ms 10 --budget-s 170 --out $R/launch_tuning_call34.json > $R/matmul_tma_log.txt 2>&1
echo "tma rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
