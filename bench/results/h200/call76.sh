#!/usr/bin/env bash
# H200 call 76 (session of 2026-11-29, fourth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call76.sh      (the device tool sets OUT)
# 1. cross_entropy at the vocabularies call 62 did not tune (its launch came from 4096 x 32000 and 4096 x 128256; at
# 50257 the solution reads at 89% of copy bandwidth, the one vocabulary below 90%): bench/launch_tuning.py
# --what cross_entropy at 4096 x 50257 / 152064 / 256000, pipelined launches (stages 2-3); 2. bench/inductor_code.py for
# layernorm_backward 4096 x 12288 fp16 (torch.compile's dweight / dbias kernel took 53.9 us in fp16 against 57.0 in bf16,
# call 75) and layernorm 16384 x 8192 float32 (0.98x torch.compile, call 75).
# What happened (91 s): cross_entropy at 4096 x 50257: none of 18 launches (2048-8192 chunks, 4-16 warps, 2-3 stages)
# beat the solution's (109.0 us); 152064: 8192 x 4 warps x 3 stages 286.3 against 286.7, 256000: the solution's fastest
# (476.2). Inductor: layernorm_backward fp16 the same tiles as bf16; layernorm float32 16384 x 8192 4096-column chunks, 16 warps.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh76 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 300 python3 bench/launch_tuning.py --what cross_entropy --shapes 4096x50257,4096x152064,4096x256000 \
  --variants "stages=2,stages=3" --rep-ms 10 --out $R/ce_tuning_call76.json > $R/ce_tuning_call76.txt 2>&1; step ce $?
timeout 100 python3 bench/inductor_code.py --out /tmp/ind --dtype float16 layernorm_backward:4096x12288 \
  > $R/inductor_call76.txt 2>&1; step ind_lnb $?
timeout 100 python3 bench/inductor_code.py --out /tmp/ind --dtype float32 layernorm:16384x8192 \
  >> $R/inductor_call76.txt 2>&1; step ind_ln $?
tar czf $R/inductor_code_call76.tar.gz -C /tmp ind 2>/dev/null
step done 0
