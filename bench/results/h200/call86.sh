#!/usr/bin/env bash
# H200 call 86 (session of 2026-11-29, fifth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call86.sh      (the device tool sets OUT)
# From call 85's float32 tables (the 19 drills without row sweeps), launches timed at the points furthest short,
# engine protocol (and CUDA-graph replay for launch_tuning.py):
# 1. layernorm_backward 8192 x 5120 (0.83x Liger-Kernel) and 4096 x 12288: whole float32 rows of 8192 on 16 / 32
#    warps, and the separate passes, beside the chunked launches;
# 2. fp8_quant 8192 x 28672 (0.84x torch.compile): two-pass launches, now with 32 warps;
# 3. vector_add at 4096-2^24 elements (0.85x at 4096 and 65536): block and warps;
# 4. histogram at 2^24 and 2^27 (0.92-0.97x torch): block, warps, programs per SM;
# 5. residual_rmsnorm at 32 x 4096 (0.88x Liger), 256 x 8192 and 8192 x 8192;
# 6. peers.py fused_adamw in all three dtypes: its first torch.compile figures (the update in plain torch ops,
#    peers.compile_target; torch._fused_adamw_ never compiled).
# What happened (224 s): layernorm_backward 8192 x 5120 fp32 fastest whole rows on 16 warps at 3 stages, 125.4 us
# (chunked 199.8, Liger 166.3); 4096 x 12288 fp32 the chunked default stays fastest (281.4; separate passes 313.3).
# fp8_quant 8192 x 28672 fp32: 8192 on 32 warps without hints 308.4 (solution 388.4, torch.compile 329.5). vector_add
# fp32: 1024 on 4 warps within 0.1 us of the best at every size. histogram: 8192 a step, 8 warps, 8 programs an SM,
# 2^27 449.3 us (solution 619.8, torch 574.9). residual_rmsnorm fp32: the solution within 0.2-3.7 us of the best
# (lt_call86.tar.gz). fused_adamw peers (torch.compile of the update in plain ops): 0.94-1.02x under the engine's protocol.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh86 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R /tmp/lt; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 170 python3 bench/layernorm_backward_tuning.py --dtypes "" --fp32-shapes 8192x5120,4096x12288 --rep-ms 10 \
  --budget-s 120 --out $R/lnb_fp32_call86.json > $R/lnb_fp32_call86.txt 2>&1; step lnb $?
timeout 100 python3 bench/peers.py --drills fused_adamw --dtypes bfloat16,float16,float32 --runs 3 --rep-ms 15 \
  --budget-s 75 --out /tmp/peers_call86.md > /tmp/pa.txt 2>&1; step peers_adamw $?
grep -v Warning /tmp/pa.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt; cp /tmp/peers_call86.json /tmp/peers_call86.md $R/
for W in fp8_quant:8192x28672 vector_add:4096,65536,1048576,16777216 histogram:16777216,134217728 \
         residual_rmsnorm:32x4096,256x8192,8192x8192; do
  left=$(( 560 - ($(date +%s)-T0) )); [ $left -lt 40 ] && { step "skip ${W%%:*}" 0; continue; }
  timeout $left python3 bench/launch_tuning.py --what ${W%%:*} --dtype float32 --shapes ${W#*:} --rep-ms 10 \
    --out /tmp/lt/lt_${W%%:*}_call86.json > /tmp/lt.txt 2>&1; step ${W%%:*} $?
  grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/best_call86.txt
done
tar czf $R/lt_call86.tar.gz -C /tmp lt; step done 0
