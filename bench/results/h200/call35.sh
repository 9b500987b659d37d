#!/usr/bin/env bash
# H200 call 35 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call35.sh      (the device tool sets OUT)
# matmul at 1024^3: 10.4 us under the engine's protocol against 6.4 under CUDA-graph replay (call 34).
# bench/matmul_host.py separates the host side of the launch from a cold L2, for torch.matmul, the
# solution, its kernel at a fixed tile (through JITFunction and its CompiledKernel) and the persistent
# TMA kernel (host- and device-built descriptors).
# What happened (139 s): ../matmul_host_call35.json; ../launch_tuning.md (matmul at 1024^3: not the host).
# Host-far-ahead figures equal the engine's: the call-34 explanation (host side of the launch) was wrong.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $R/log.txt 2>&1
timeout 300 python3 bench/matmul_host.py --shapes 1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x11008x4096 \
  --out $R/matmul_host_call35.json > $R/matmul_host_log.txt 2>&1
echo "matmul_host rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
