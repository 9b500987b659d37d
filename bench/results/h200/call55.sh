#!/usr/bin/env bash
# H200 call 55 (session of 2026-11-29, morning; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call55.sh      (the device tool sets OUT)
# The first peer tables of the memory-bound drills without model-like row sweeps, over their
# drill.yaml bench sizes, bf16, three protocols (bench/peers.py now races every one-process GB/s
# drill; Liger peers for residual_rmsnorm, layernorm_backward, rope).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh55 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
D=causal_conv1d,dropout,embedding_backward,flash_decoding,fp8_quant,fused_adamw,histogram,int4_wo_matmul,int8_wo_matmul
D=$D,layernorm_backward,moe_gating,paged_attention_decode,prefix_sum,residual_rmsnorm,rope,top_p_sampling,topk_rows
D=$D,transpose,vector_add
timeout 560 python3 bench/peers.py --drills $D --dtypes bfloat16 --runs 3 --rep-ms 15 --budget-s 470 \
  --out /tmp/peers_call55.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; cp /tmp/peers_call55.json /tmp/peers_call55.md $R/
