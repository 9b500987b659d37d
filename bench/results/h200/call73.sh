#!/usr/bin/env bash
# H200 call 73 (session of 2026-11-29, fourth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call73.sh      (the device tool sets OUT)
# Call 72: torch.compile's dweight / dbias kernel (the same 64 x 64 tile on 16 warps) took 54.4-57.8 us where the
# solution's took 62.5; the dx kernels were level (76-78 us). The solution's dwdb kernel now compiles N in, drops the
# masks where every band is whole tiles (EVEN) and uses 32-bit offsets where they fit, as Inductor's does. 1.
# bench/lnb_kernels_apart.py again (those flags forced off beside the new default; bands of rows); 2. bench/inductor_like.py
# layernorm: its two-pass kernel with the Welford update multiplying by 1 / count (rcp) beside dividing, float32 at
# 4096 x 4096, 4096 x 8192, 16384 x 4096 (0.95-0.99x torch.compile, call 71) and bf16 at 4096 / 16384 x 16384 (where
# the solution runs its two-pass kernel).
# What happened (114 s): the dwdb kernel with unmasked loads and 32-bit offsets 60.5-60.8 us (forced off 63.3-63.8);
# whole 141.2-141.9 against torch.compile 133.0-138.3. layernorm float32: the two-pass kernel at 2048 x 16 warps
# 126.0 us at 16384 x 4096 (solution 129.1, torch.compile 125.7), 66.4 at 4096 x 8192; 1 / count (rcp) changed nothing.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh73 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 200 python3 bench/lnb_kernels_apart.py --shapes 4096x12288 --dtypes bfloat16,float16 --iters 30 --rep-ms 10 \
  --out $R/lnb_apart_call73.json > $R/lnb_apart_call73.txt 2>&1; step lnb_apart $?
timeout 150 python3 bench/inductor_like.py --what layernorm --dtype float32 --shapes 4096x4096,4096x8192,16384x4096 \
  --rep-ms 10 --out $R/ln_rcp_fp32_call73.json > $R/ln_rcp_call73.txt 2>&1; step ln_fp32 $?
timeout 120 python3 bench/inductor_like.py --what layernorm --dtype bfloat16 --shapes 4096x16384,16384x16384 \
  --rep-ms 10 --out $R/ln_rcp_bf16_call73.json >> $R/ln_rcp_call73.txt 2>&1; step ln_bf16 $?
step done 0
