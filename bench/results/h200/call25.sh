#!/usr/bin/env bash
# H200 call 25 (session of 2026-11-28, late night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call25.sh      (the device tool sets OUT)
# 1. bench/inductor_code.py: what torch.compile runs where it leads the solutions by 2-11%
#    (peers.md, engine); 2. softmax_backward's kernels launched other ways (never tuned on a
#    GPU: 0.93-0.98x torch.compile at 1024-16384 x 4096-16384); 3. swiglu as one flat range
#    (Inductor's pointwise launch) against the solution (0.95-0.98x at hidden >= 8192).
# What happened (94 s): softmax_backward's launches 1-2.5% apart at best (4 warps on whole rows of
# 16384); swiglu's flat kernel with a runtime H no faster; the Inductor sources did not come back
# (a call returns at most 8 files), so call 26 ran them again. Results: ../softmax_bwd_tuning_call25.json,
# ../launch_tuning_call25.json.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt 2>&1
timeout 200 python3 bench/inductor_code.py --out $R/inductor_code softmax_backward:4096x16384 \
  softmax_backward:1024x16384 rmsnorm:1024x16384 rmsnorm:1024x32768 layernorm:4096x16384 swiglu:4096x16384 \
  softmax:1024x16384 row_sum:16384x2048 row_sum:1024x16384 > $R/inductor_log.txt 2>&1
echo "inductor rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 200 python3 bench/long_rows_tuning.py --drills softmax_backward --dtypes bfloat16 --rep-ms 15 \
  --shapes 1024x16384,4096x16384,4096x8192,16384x4096,16384x16384 --out $R/softmax_bwd_tuning_call25.json \
  > $R/softmax_bwd_log.txt 2>&1
echo "softmax_bwd rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 90 python3 bench/launch_tuning.py --what swiglu --shapes 4096x16384,1024x8192,4096x8192,16384x16384 \
  --variants "flat,ieee bm=1 bn=4096,ieee bm=1 bn=2048" --rep-ms 15 --out $R/launch_tuning_call25.json \
  > $R/swiglu_log.txt 2>&1
echo "swiglu rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
grep -h "^BEST" $R/*_log.txt > $R/best.txt
