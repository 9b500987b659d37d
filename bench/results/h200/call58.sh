#!/usr/bin/env bash
# H200 call 58 (session of 2026-11-29, morning; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call58.sh      (the device tool sets OUT)
# 1. call58_host.py: host time per call of solutions that looked host-bound under stock do_bench;
# 2. peers.py bf16 for int8_wo_matmul (call 57's budget ran out before it; dequantize-then-GEMM from
#    M = 1024);
# 3. peers.py fp16 for the drills call 57 did not reach.
# What happened (166 s): host_call58.txt (solution host time 65-84 us a call); peers_call58a (int8 bf16: met
# except 4096^3 under do_bench, 0.94x) and peers_call58b (the fp16 points call 57 did not reach).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh58 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 45 python3 bench/results/h200/call58_host.py > $R/host.txt 2>&1; step host $?
timeout 70 python3 bench/peers.py --drills int8_wo_matmul --dtypes bfloat16 --runs 3 --rep-ms 15 --budget-s 55 \
  --out /tmp/peers_call58a.md > /tmp/peers_a.txt 2>&1; step peers_a $?
timeout 250 python3 bench/peers.py --drills paged_attention_decode,prefix_sum,residual_rmsnorm,rope,topk_rows,transpose,vector_add \
  --sizes 16x32x32x128x4096,4096x256,4096x1024,4096x4096,4096x16384,64x262144,4x4194304,1x4096,32x4096,256x8192,4096x5120,8192x8192,16384x4096,1x4096x32x128,4x4096x32x128,8x2048x32x64,16x8192x8x128,1x32000,64x32000,1x128256,32x128256,256x128256,128x151936,4096x64,16384x256,1024x1024,16384x4096,4096x16384,4096,65536,1048576,16777216,134217728 \
  --dtypes float16 --runs 3 --rep-ms 15 --budget-s 225 --out /tmp/peers_call58b.md > /tmp/peers_b.txt 2>&1; step peers_b $?
grep -v Warning /tmp/peers_b.txt | grep "wrote\|Error" | tail -5 >> $R/log.txt
cp /tmp/peers_call58a.json /tmp/peers_call58a.md /tmp/peers_call58b.json /tmp/peers_call58b.md $R/ 2>/dev/null
