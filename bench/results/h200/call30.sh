#!/usr/bin/env bash
# H200 call 30 (session of 2026-11-28, late night; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call30.sh      (the device tool sets OUT)
# Where the solutions still trail by 1-4% (peers.md after calls 28-29):
# 1. softmax against Liger-Kernel's one-row kernel, with and without its .ca/.cs cache hints;
# 2. two passes for softmax_backward / rmsnorm / layernorm rows of 2048-4096 (bench/inductor_like.py);
# 3. rmsnorm / layernorm at 4096 columns: warps and (layernorm) weights first, bf16 and fp16
#    (bench/long_rows_tuning.py --no-looped);
# 4. peers.py for row_sum after the 8192-16384 launch rule was taken out again.
# What happened (160 s): ../inductor_like_{softmax,softmax_bwd,norms_two_pass}_call30.json,
# ../long_rows_tuning_norms_call30.json, ../peers_h200/peers_call30.md; taken: see ../launch_tuning.md.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 120 python3 bench/inductor_like.py --what softmax --shapes 1024x16384,4096x16384,16384x8192,1024x4096,4096x4096 \
  --out $R/softmax_call30.json > $R/run_log.txt 2>&1; step softmax $?
timeout 100 python3 bench/inductor_like.py --what softmax_backward --shapes 16384x4096,65536x4096,32768x2048,1024x4096 \
  --out $R/softmax_bwd_call30.json >> $R/run_log.txt 2>&1; step softmax_backward $?
timeout 100 python3 bench/inductor_like.py --what rmsnorm,layernorm --shapes 1024x4096,4096x4096,16384x4096 \
  --out $R/norms_two_pass_call30.json >> $R/run_log.txt 2>&1; step norms_two_pass $?
timeout 120 python3 bench/long_rows_tuning.py --no-looped --drills rmsnorm,layernorm --shapes 1024x4096,4096x4096,16384x4096 \
  --dtypes bfloat16,float16 --rep-ms 15 --out $R/norms_warps_call30.json >> $R/run_log.txt 2>&1; step norms_warps $?
timeout 90 python3 bench/peers.py --drills row_sum --sweeps model_rows --dtypes bfloat16 --runs 3 --rep-ms 15 --budget-s 70 \
  --sizes 1024x8192,1024x16384,4096x8192,4096x16384,16384x8192 --out /tmp/peers_call30.md > /tmp/peers_call30.log 2>&1
step peers_row_sum $?; cp /tmp/peers_call30.json $R/
grep -h "^BEST" $R/run_log.txt > $R/best.txt
