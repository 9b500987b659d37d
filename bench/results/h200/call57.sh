#!/usr/bin/env bash
# H200 call 57 (session of 2026-11-29, morning; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call57.sh      (the device tool sets OUT)
# 1. call57_micro.py: embedding_backward's preprocessing pieces; layernorm_backward 4096 x 12288 bf16
#    launch shapes beyond call 56's list;
# 2. peers.py bf16 for the drills changed after call 55 (top_p_sampling: rows split over programs;
#    embedding_backward: zero tiles + a program per segment; layernorm_backward: launch set from call 56;
#    int4 / int8 weight-only matmul: dequantize-then-GEMM from M = 512);
# 3. peers.py fp16 for the other memory-bound drills without row sweeps (call 55 ran them in bf16).
# What happened (431 s): micro_call57.txt; peers_call57a: top_p and int4 met everywhere, embedding 0.80-0.99x
# at 3 of 5 sizes, layernorm_backward short only at 4096 x 12288 (0.87-0.92x); int8 not reached (budget);
# peers_call57b: fp16 of 8 drills, 6 not reached (run in call 58).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh57 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 120 python3 bench/results/h200/call57_micro.py > $R/micro.txt 2>&1; step micro $?
timeout 170 python3 bench/peers.py --drills top_p_sampling,embedding_backward,layernorm_backward,int4_wo_matmul,int8_wo_matmul \
  --dtypes bfloat16 --runs 3 --rep-ms 15 --budget-s 150 --out /tmp/peers_call57a.md > /tmp/peers_a.txt 2>&1; step peers_a $?
grep -v Warning /tmp/peers_a.txt | grep "errors\|wrote\|Error" | tail -12 >> $R/log.txt
D=causal_conv1d,dropout,flash_decoding,fp8_quant,fused_adamw,histogram,moe_gating,paged_attention_decode,prefix_sum
D=$D,residual_rmsnorm,rope,topk_rows,transpose,vector_add
timeout 250 python3 bench/peers.py --drills $D --dtypes float16 --runs 3 --rep-ms 15 --budget-s 225 \
  --out /tmp/peers_call57b.md > /tmp/peers_b.txt 2>&1; step peers_b $?
grep -v Warning /tmp/peers_b.txt | grep "wrote\|Error" | tail -5 >> $R/log.txt
cp /tmp/peers_call57a.json /tmp/peers_call57a.md /tmp/peers_call57b.json /tmp/peers_call57b.md $R/ 2>/dev/null
