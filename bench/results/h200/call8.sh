#!/usr/bin/env bash
# H200 call 8 (session of 2026-11-28 afternoon; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call8.sh      (the device tool sets OUT)
# #21: peers.py found layernorm (and rmsnorm, softmax) at 0.76-0.84x Liger for decode-sized
# inputs (1-128 rows of 2048-16384): warps per row for few rows, bf16 and fp16.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
S=1x1024,1x2048,1x4096,1x8192,1x16384,16x2048,16x4096,16x8192,16x16384,128x2048,128x4096,128x8192,128x16384
timeout 400 python3 bench/long_rows_tuning.py --no-looped --shapes $S --dtypes bfloat16 --rep-ms 25 \
  --out $R/small_m_tuning.json > $R/small_m_tuning.txt 2>&1
echo "tuning rc=$?" >> $R/log.txt
cd $OUT && tar czf h200_call8.tgz r && rm -rf r
