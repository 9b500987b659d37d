#!/usr/bin/env bash
# H200 call 85 (session of 2026-11-29, fifth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call85.sh      (the device tool sets OUT)
# The first float32 peer tables of the 19 memory-bound drills without row sweeps, over their drill.yaml bench sizes,
# three protocols (calls 55-61 did bf16 and fp16). Each solution is checked against the float64 reference with the
# drill's float32 tolerance before it is timed.
# What happened (501 s): all 128 points ran (../peers_h200/peers_call85.md); of 384 point-protocol figures 304
# met, 5 within noise, 60 short (6 of them launch-bound), 15 without a peer figure. Furthest short:
# layernorm_backward 8192 x 5120 (0.83x Liger-Kernel, 199.9 against 166.0 us), fp8_quant 8192 x 28672 (0.84x
# torch.compile), histogram 2^27 (0.92x torch), vector_add at 4096-65536 (0.85x); fused_adamw's torch.compile
# peer failed to compile (Inductor's functionalization assert on torch._fused_adamw_).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh85 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
D=causal_conv1d,dropout,embedding_backward,flash_decoding,fp8_quant,fused_adamw,histogram,int4_wo_matmul,int8_wo_matmul
D=$D,layernorm_backward,moe_gating,paged_attention_decode,prefix_sum,residual_rmsnorm,rope,top_p_sampling,topk_rows
D=$D,transpose,vector_add
timeout 575 python3 bench/peers.py --drills $D --dtypes float32 --runs 3 --rep-ms 15 --budget-s 500 \
  --out /tmp/peers_call85.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; cp /tmp/peers_call85.json /tmp/peers_call85.md $R/
