#!/usr/bin/env bash
# H200 call 56 (session of 2026-11-29, morning; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call56.sh      (the device tool sets OUT)
# After call 55's first tables of the other memory-bound drills: the new reference designs of
# top_p_sampling (rows split over many programs), embedding_backward (zero tiles + one program per
# segment, deterministic) and layernorm_backward (configurable launch), each checked and timed by its
# own script; where int4/int8 weight-only matmul should switch to dequantize-then-GEMM; peers.py
# for residual_rmsnorm (baseline now returns (h, y)) and histogram (bf16 baseline fixed).
# What happened (323 s): top_p 144/144 input sets exact, 1.3-6.3x the best peer (top_p_check_call56.txt);
# embedding 46 runs correct and deterministic, 0.46-1.11x torch.compile (embedding_check_call56.txt); layernorm
# tuning (lnb_tuning_call56.txt): fastest configs 1.03-2.09x the best peer except 4096 x 12288 bf16 (0.87x);
# wo_gemm_threshold_call56.txt: the crossover; residual_rmsnorm level with Liger, histogram met everywhere.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh56 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
TOPP_BUDGET_S=70 timeout 100 python3 bench/top_p_sampling_check.py > $R/top_p_check.txt 2>&1; step top_p $?
timeout 100 python3 bench/embedding_backward_check.py --budget-s 80 > $R/embedding_check.txt 2>&1; step embedding $?
timeout 160 python3 bench/layernorm_backward_tuning.py --split --budget-s 120 --out $R/lnb_tuning.json > $R/lnb_tuning.txt 2>&1; step lnb $?
timeout 100 python3 bench/wo_gemm_threshold.py --ms 128,256,512,1024,4096 --rep-ms 20 > $R/wo_gemm.txt 2>&1; step wo $?
timeout 70 python3 bench/peers.py --drills residual_rmsnorm,histogram --dtypes bfloat16 --runs 3 --rep-ms 15 --budget-s 55 \
  --out /tmp/peers_call56.md > /tmp/peers_log.txt 2>&1; step peers $?; grep -v Warning /tmp/peers_log.txt | tail -15 >> $R/log.txt
cp /tmp/peers_call56.json /tmp/peers_call56.md $R/ 2>/dev/null
