#!/usr/bin/env bash
# H200 call 55 (session of 2026-11-29, morning; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call55.sh      (the device tool sets OUT)
# The first peer tables of the memory-bound drills without model-like row sweeps, over their
# drill.yaml bench sizes, bf16, three protocols (bench/peers.py now races every one-process GB/s
# drill; Liger peers for residual_rmsnorm, layernorm_backward, rope).
# What happened (450 s): all 128 points ran (../peers_h200/peers_call55.md). Short: embedding_backward (0.34-0.98x
# torch.compile), top_p_sampling (0.07-0.71x at 1-64 rows), layernorm_backward (0.40-0.98x at 32768 x 768,
# 8192 x 5120, 4096 x 12288), int4/int8 at 4096^3 (0.56-0.84x), residual_rmsnorm (0.70x: torch.compile of a
# baseline that returned y alone skipped writing h), histogram without a torch figure (histc has no bf16 kernel).
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
