#!/usr/bin/env bash
# H200 call 52 (session of 2026-11-29; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call52.sh      (the device tool sets OUT)
# 1. the fixed fused_adamw_l2_decay fixture (1 - beta1, 1 - beta2 from the host; correctly rounded
#    sqrt and division) through bench/cheats_gpu_check.py;
# 2. peers.py for flash_attention again (bf16, fp16) after the host side of the Hopper path was cut
#    (cached box layouts: ~46 -> ~25 us of Python a call), the figures that go into peers.md.
# What happened (102 s): the fixture's verdict as expected (cheats_gpu_check_call52.txt).
# ../peers_h200/peers_call52.md (merged into ../peers.md): every seq-4096+ point at 0.91-1.17x the best
# peer (SDPA, i.e. cuDNN, or torch.compile) under all three protocols; short: head_dim 64 causal
# (0.93-0.94 within noise under engine and do_bench, 0.91 cudagraph) and 4 x 32 x 1024 x 64
# (0.82 engine, 0.59/0.86 do_bench, 0.89-0.90 cudagraph).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh52 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 90 python3 bench/cheats_gpu_check.py --jobs 1 --only fused_adamw_l2_decay \
  --out $R/cheats_gpu_check_call52.json > $R/cheats_gpu_check_call52.txt 2>&1
echo "fixture rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 300 python3 bench/peers.py --drills flash_attention --dtypes bfloat16,float16 --runs 3 --rep-ms 20 --budget-s 280 \
  --out /tmp/peers_call52.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; cp /tmp/peers_call52.json /tmp/peers_call52.md $R/
