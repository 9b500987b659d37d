#!/usr/bin/env bash
# H200 call 39 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call39.sh      (the device tool sets OUT)
# matmul at 1024^3 loses ~2 us to cuBLAS only with L2 flushed (call 35). Nsight Compute through the
# app (`studio-drill profile`, caches flushed before each kernel, clocks not locked) on both sides
# (solution and torch/cuBLAS) at 1024^3 bf16 (the pointer kernel) and 4096^3 bf16 (the TMA kernel):
# kernel names, grid, registers, shared memory, duration, DRAM bytes, L2 hit rate, stalls.
# What happened (57 s): ../ncu_h200/profile_*.json. 1024^3: the solution ran 128 x 128 tiles, 64 CTAs
# of 4 warps, 9.4 us; cuBLAS (nvjet_sm90_tst_128x64_64x8_1x2) 128 x 64 tiles, 128 CTAs in 2-CTA clusters,
# 384 threads, 213 KB of shared memory, 7.3 us. 4096^3: the TMA kernel 197 us, cuBLAS 176 (caches flushed).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh39 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
if ! command -v ncu >/dev/null 2>&1; then
  for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda-*/bin/ncu; do
    [ -x "$c" ] && export STUDIO_NCU="$c" && break
  done
fi
echo "ncu: ${STUDIO_NCU:-$(command -v ncu)}" > $R/log.txt
for size in 1024x1024x1024 4096x4096x4096; do
  timeout 250 python3 -m studio.drills.cli profile matmul @solution --size $size --dtype bfloat16 --timeout 110 --json \
    > $R/profile_$size.json 2> $R/profile_$size.stderr
  echo "profile $size rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
done
