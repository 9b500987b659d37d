#!/usr/bin/env bash
# H200 call 83 (session of 2026-11-29, fourth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call83.sh      (the device tool sets OUT)
# layernorm_backward 4096 x 12288 fp16 (0.97x torch.compile, call 75a): timed apart, the two plans' kernels add up to
# 132.5 us (ours) and 130.4 (torch.compile's) but whole they took 137.4 and 133.0. torch.compile runs the dweight / dbias
# kernel first, the solution runs dx first. bench/lnb_kernels_apart.py --only-whole: torch.compile, the solution, and the
# solution with the dwdb kernel first, three interleaved rounds, bf16 and fp16.
# What happened (28 s): the dwdb kernel first: bf16 132.7-134.1 us against 136.4-137.0 with dx first and torch.compile's
# 138.1-138.6; fp16 133.3-135.4 against 137.9-138.5 and 133.3-134.9.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh83 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 150 python3 bench/lnb_kernels_apart.py --shapes 4096x12288 --dtypes bfloat16,float16 --only-whole --repeat 3 \
  --rep-ms 10 --out $R/lnb_order_call83.json > $R/lnb_order_call83.txt 2>&1; step lnb_order $?
step done 0
