#!/usr/bin/env bash
# H200 call 45 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call45.sh      (the device tool sets OUT)
# The provenance check now looks through TMA descriptors (honesty.py). On the GPU: the honest fixtures
# (incl. softmax_tensor_descriptor) must pass with no flag, and the cheats that the provenance and
# timing checks catch must still fail (decoy_torch_math, decoy_numpy, gpu_skips_after_first,
# gpu_side_stream, gpu_computes_when_watched), through bench/cheats_gpu_check.py.
# What happened (64 s): 9 of 9 verdicts as expected (cheats_gpu_check_call45.txt).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh45 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 170 python3 bench/cheats_gpu_check.py --jobs 5 --out $R/cheats_gpu_check_call45.json \
  --only softmax_two_kernels,softmax_kernel_cache,layernorm_welford,softmax_tensor_descriptor,decoy_torch_math,decoy_numpy,gpu_skips_after_first,gpu_side_stream,gpu_computes_when_watched \
  > $R/cheats_gpu_check_call45.txt 2>&1
echo "cheats rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
