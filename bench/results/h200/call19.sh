#!/usr/bin/env bash
# H200 call 19 (session of 2026-11-28 night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call19.sh      (the device tool sets OUT)
# 1. bench/long_rows_tuning.py --short-rows: rows per program x warps of the fused kernel of
#    softmax, rmsnorm and layernorm at hidden 512 / 1024 with many tokens, where all three sat at
#    0.87-0.96x torch.compile (their table was tuned at M = 4096 on an H100);
# 2. flash_attention: the hand-pipelined variant (Q K^T one key block ahead) against the
#    solution and cuDNN, head_dim 128.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 330 python3 bench/long_rows_tuning.py --short-rows --drills layernorm,rmsnorm,softmax \
  --shapes 16384x512,4096x512,16384x1024 --dtypes bfloat16 --rep-ms 10 \
  --out $R/short_rows_call19.json > $R/short_rows_log.txt 2>&1
echo "short rows rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
grep "^BEST" $R/short_rows_log.txt > $R/short_rows_best.txt
timeout 90 python3 bench/launch_tuning.py --what flash_attention --variants "pipe,sdpa cudnn,fma bm=128 bn=64 w=8 s=3" \
  --shapes 4x16x4096x128,4x16x4096x128x1 --rep-ms 15 --out $R/launch_tuning_call19.json > $R/fa_log.txt 2>&1
echo "fa rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
