#!/usr/bin/env bash
# H200 call 32 (session of 2026-11-28, late night; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call32.sh      (the device tool sets OUT)
# 1. peers.py for softmax at the sizes where it trails Liger-Kernel by 1-4% (the merged table's
#    figures there date from calls 5 and 12, before the long-row and short-row changes);
# 2. row_sum's kernel at 16 warps for rows of 8192-16384 (Inductor's launch there: 2048-column
#    chunks on 16 warps), bench/launch_tuning.py; 3. Liger's one-row softmax with and without
#    its cache hints, fp16 (call 30 ran bf16).
# What happened (112 s): ../peers_h200/peers_call32.md, ../launch_tuning_call32.json,
# ../inductor_like_softmax_fp16_call32.json; nothing taken from 2 or 3.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 200 python3 bench/peers.py --drills softmax --sweeps model_rows,attention_rows --dtypes bfloat16,float16 --runs 3 \
  --rep-ms 15 --budget-s 180 --sizes 1024x4096,4096x4096,1024x16384,4096x16384,16384x8192,131072x8192 \
  --out /tmp/peers_call32.md > $R/run_log.txt 2>&1; step peers_softmax $?; cp /tmp/peers_call32.json $R/
timeout 80 python3 bench/launch_tuning.py --what row_sum --shapes 1024x16384,4096x8192,4096x16384,16384x8192 \
  --variants "bm=1 bn=2048 w=16,bm=1 bn=2048 w=8,bm=1 bn=4096 w=16,bm=2 bn=2048 w=16" --rep-ms 15 \
  --out $R/launch_tuning_call32.json >> $R/run_log.txt 2>&1; step row_sum $?
timeout 60 python3 bench/inductor_like.py --what softmax --dtype float16 --shapes 1024x16384,4096x16384 \
  --out $R/inductor_like_softmax_fp16_call32.json >> $R/run_log.txt 2>&1; step softmax_fp16 $?
grep -h "^BEST" $R/run_log.txt > $R/best.txt
