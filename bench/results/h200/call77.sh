#!/usr/bin/env bash
# H200 call 77 (session of 2026-11-29, fourth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call77.sh      (the device tool sets OUT)
# 1. bench/lnb_kernels_apart.py with Inductor's own layout of the dweight / dbias sums ([columns, rows] tiles, reduced
# along the rows; call 76's Inductor fp16 dump has the same 64 x 64 tile on 16 warps as bf16, yet it ran 53.9 us in fp16
# against 57.0 in bf16, while the solution's took 56.1 in both); 2. bench/inductor_like.py layernorm float32 at 16384 x
# 8192 (0.98x torch.compile, call 75; Inductor runs 4096-column chunks on 16 warps there, call 76); 3. the first float32
# peers tables of softmax_backward, row_sum, swiglu and bias_gelu at four model_rows points each (budget permitting).
# What happened (125 s): Inductor's layout of the dwdb sums no faster (59.5-60.7 us at its best against 56.7); layernorm
# float32 16384 x 8192: the two-pass kernel at 4096 x 16 warps 255.6 us, 2048 x 16 257.8 (torch.compile 252.1); peers_call77:
# float32 softmax_backward 0.98-1.02x, row_sum 0.96-0.99x, swiglu 0.96-1.00x, bias_gelu 0.93-0.95x torch.compile (engine).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh77 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 560 - $(date +%s) + T0 )); }
timeout 150 python3 bench/lnb_kernels_apart.py --shapes 4096x12288 --dtypes bfloat16,float16 --iters 20 --rep-ms 10 \
  --out $R/lnb_apart_call77.json > $R/lnb_apart_call77.txt 2>&1; step lnb_apart $?
timeout 120 python3 bench/inductor_like.py --what layernorm --dtype float32 --shapes 16384x8192 --rep-ms 10 \
  --out $R/ln_fp32_call77.json > $R/ln_fp32_call77.txt 2>&1; step ln_fp32 $?
[ $(left) -gt 120 ] && { timeout $(( $(left) - 5 )) python3 bench/peers.py --drills softmax_backward,row_sum,swiglu,bias_gelu \
  --dtypes float32 --sweeps model_rows --sizes 1024x4096,4096x4096,4096x8192,16384x4096 --runs 3 --rep-ms 15 \
  --budget-s $(( $(left) - 50 )) --out /tmp/peers_call77.md > /tmp/pb.txt 2>&1; step peers $?;
  grep -v Warning /tmp/pb.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt; }
cp /tmp/peers_call77.json /tmp/peers_call77.md $R/ 2>/dev/null
step done 0
