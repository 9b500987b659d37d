#!/usr/bin/env bash
# H200 call 70 (session of 2026-11-29, third; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call70.sh      (the device tool sets OUT)
# The first float32 tables (call 69b) had rmsnorm and layernorm at 0.95-0.98x torch.compile / Liger-Kernel from 4096 x 4096
# up. Their launch tables were tuned on two-byte rows; float32 rows of 4096-8192 take the fused kernel (the row in
# registers), where two-byte rows of many rows take the two-pass kernel (TWO_PASS). bench/long_rows_tuning.py: the fused
# kernel on 4-32 warps and the two-pass kernel at 2048-8192-column chunks on 4-16 warps, float32, three points each.
# What happened (31 s): norms_fp32_tuning_call70.json. rmsnorm: the two-pass kernel on 16 warps was fastest at 16384 x 4096
# (125.3-125.5 us with 2048-8192-column chunks against the solution's fused 129.6) and 4096 x 8192 (64.5 against 66.1);
# at 4096 x 4096 every launch but the fused kernel on 32 warps (41.0) and 2048-column chunks on 4 warps (37.1) took
# 32.5-34.6. layernorm: the fused kernel stayed fastest, 16 warps at 16384 x 4096 (128.9 against 132.7); its two-pass
# kernel was 5-69% slower than the best fused launch.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh70 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 125 python3 bench/long_rows_tuning.py --drills rmsnorm,layernorm --shapes 16384x4096,4096x4096,4096x8192 \
  --dtypes float32 --rep-ms 10 --out $R/norms_fp32_tuning_call70.json > /tmp/t.txt 2>&1; step tuning $?
grep -E "BEST|rror" /tmp/t.txt | head -20 >> $R/log.txt
step done 0
