#!/usr/bin/env bash
# H200 call 80 (session of 2026-11-29, fourth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call80.sh      (the device tool sets OUT)
# bias_gelu float32 after call 78's launch: 0.96-0.99x torch.compile (call 79; 16384 x 4096 132.8 against 127.2 us).
# 1. bench/launch_tuning.py --what bias_gelu: a flat launch as torch.compile's pointwise kernels (x and y one flat range,
# the bias column i % N) beside the tiled launch, float32 at 4096 x 4096, 4096 x 8192, 16384 x 4096 and bf16 at 16384 x
# 4096; 2. bench/inductor_code.py: bias_gelu float32 16384 x 4096 and row_sum float32 4096 x 4096 (0.96-0.99x, call 77).
# What happened (55 s): bias_gelu float32 flat 1024 values on 8 warps 33.7 / 64.4 / 126.6 us (tiles 34.6 / 67.9 /
# 133.3; torch.compile 33.8 / 65.3 / 127.2 in call 77); bf16 16384 x 4096 flat 67.1 against the tiles' 68.8. Inductor's
# bias_gelu float32: XBLOCK 1024 on 4 warps; row_sum float32: 2048-column chunks on 16 warps.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh80 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 150 python3 bench/launch_tuning.py --what bias_gelu --dtype float32 --shapes 4096x4096,4096x8192,16384x4096 \
  --variants "flat,bm=1 bn=1024 w=4 " --rep-ms 10 --out $R/bg_flat_fp32_call80.json > $R/bg_flat_call80.txt 2>&1; step fp32 $?
timeout 80 python3 bench/launch_tuning.py --what bias_gelu --dtype bfloat16 --shapes 16384x4096 \
  --variants "flat,bm=8 bn=1024 w=8 " --rep-ms 10 --out $R/bg_flat_bf16_call80.json >> $R/bg_flat_call80.txt 2>&1; step bf16 $?
grep -h "^BEST\|^SHAPE" $R/bg_flat_call80.txt >> $R/log.txt
timeout 100 python3 bench/inductor_code.py --out /tmp/ind --dtype float32 bias_gelu:16384x4096 row_sum:4096x4096 \
  > $R/inductor_call80.txt 2>&1; step inductor $?
tar czf $R/inductor_code_call80.tar.gz -C /tmp ind 2>/dev/null
step done 0
