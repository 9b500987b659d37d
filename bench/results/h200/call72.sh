#!/usr/bin/env bash
# H200 call 72 (session of 2026-11-29, fourth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call72.sh      (the device tool sets OUT)
# layernorm_backward 4096 x 12288 (0.93x torch.compile in fp16, 0.97x in bf16, call 69): 1. bench/lnb_kernels_apart.py,
# each kernel of torch.compile's plan and of the solution's separate passes timed apart (torch.profiler, L2 flushed
# before each call), the solution's dweight / dbias pass at 18 launches (new: bands of rows with float32 partials) and its
# dx pass at 6, alone; 2. bench/inductor_code.py for layernorm float32 at 4096 x 4096, 4096 x 8192 and 16384 x 4096
# (0.95-0.99x torch.compile, call 71).
# What happened (64 s): timed apart (torch.profiler, L2 flushed), torch.compile's dx kernel took 78.1 us bf16 / 76.2 fp16 and its
# dweight / dbias kernel 57.8 / 54.4; the solution's 77.2 / 76.4 and 62.5 / 62.6: the dwdb kernel trails. Two bands of rows
# 58.7-59.4 alone; Inductor's float32 layernorm: one row a program, 2048-4096-column chunks walked twice, 16 warps.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh72 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> $R/log.txt 2>&1
timeout 300 python3 bench/lnb_kernels_apart.py --shapes 4096x12288 --dtypes bfloat16,float16 --iters 30 --rep-ms 10 \
  --out $R/lnb_apart_call72.json > $R/lnb_apart_call72.txt 2>&1; step lnb_apart $?
timeout 150 python3 bench/inductor_code.py --out /tmp/ind --dtype float32 layernorm:4096x4096 layernorm:4096x8192 \
  layernorm:16384x4096 > $R/inductor_call72.txt 2>&1; step inductor $?
tar czf $R/inductor_code_call72.tar.gz -C /tmp ind 2>/dev/null
step done 0
