#!/usr/bin/env bash
# H200 call 18 (session of 2026-11-28 night; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call18.sh      (the device tool sets OUT)
# peers.py for layernorm on model_rows in fp16 (call 12 reached 11 of its 36 points).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 330 python3 bench/peers.py --drills layernorm --sweeps model_rows --dtypes float16 \
  --runs 3 --rep-ms 15 --budget-s 290 --out $R/peers_call18.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
