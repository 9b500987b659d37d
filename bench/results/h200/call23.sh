#!/usr/bin/env bash
# H200 call 23 (session of 2026-11-28 night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call23.sh      (the device tool sets OUT)
# peers.py for flash_attention in fp16 (its bench sizes; every earlier table was bf16).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 200 python3 bench/peers.py --drills flash_attention --dtypes float16 \
  --runs 3 --rep-ms 20 --budget-s 170 --out $R/peers_call23.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
