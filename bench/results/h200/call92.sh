#!/usr/bin/env bash
# H200 call 92 (session of 2026-11-29, sixth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call92.sh      (the device tool sets OUT)
# bench/launch_tuning.py, engine protocol and CUDA-graph replay:
# 1. flash_decoding and paged_attention_decode in float32 (call 85: 26-30% of copy bandwidth, dot products in
#    IEEE float32): dot precision ieee / tf32 / tf32x3 x programs per SM 2-16;
# 2. prefix_sum 4096 x 16384 in float32 and bf16 (83-87%): the carry loop's chunk, warps, stages; the split path;
# 3. paged_attention_decode bf16 / fp16 at 8 x 32 x 8 x 128 x 8192 (83-85%): programs per SM;
# 4. dropout bf16 (78-83%, Philox-bound): block and warps, and the keep test on Philox's integer words.
# What happened (226 s): float32 decode attention ~3x faster with TF32 dots (flash_decoding 1 x 32K 226.3 -> 74.6 us
#   at 2 programs an SM, paged 8 x 8K 443.0 -> 136.5; tf32x3 27-31% slower than tf32; max error against SDPA 2e-4).
#   prefix_sum 4096 x 16384: bf16 75.1 -> 71.7 (1024 on 4 warps), float32 143.7 -> 139.2 (8192 on 8). paged bf16 /
#   fp16: no programs-per-SM setting faster than the solution's 4 at 8 x 8K. dropout bf16: 4096 on 4 warps 3-4%
#   faster; the integer keep test no faster.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh92 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R /tmp/lt; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
tune() {  # drill dtype shapes
  left=$(( 575 - ($(date +%s)-T0) )); [ $left -lt 30 ] && { step "skip $1 $2 $3" 0; return; }
  timeout $left python3 bench/launch_tuning.py --what $1 --dtype $2 --shapes $3 --rep-ms 10 \
    --out /tmp/lt/lt_$1_$2_call92.json > /tmp/lt.txt 2>&1; step "$1 $2 $3" $?
  grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/best_call92.txt; tail -3 /tmp/lt.txt >> $R/log.txt
}
tune flash_decoding float32 1x32x8x128x32768,8x32x8x128x4096
tune paged_attention_decode float32 8x32x8x128x8192,1x32x8x128x32768
tune prefix_sum float32 4096x16384
tune prefix_sum bfloat16 4096x16384
tune paged_attention_decode bfloat16 8x32x8x128x8192,16x32x8x128x8192
tune paged_attention_decode float16 8x32x8x128x8192
tune dropout bfloat16 8192x4096,65536x4096
tar czf $R/lt_call92.tar.gz -C /tmp lt; step done 0
