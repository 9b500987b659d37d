#!/usr/bin/env bash
# H200 call 67 (session of 2026-11-29, third; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call67.sh      (the device tool sets OUT)
# 1. layernorm_backward 4096 x 12288 and 8192 x 5120, bf16 + fp16: Inductor's two-kernel plan (call 66's dump, written
#    out in bench/lnb_two_kernels.py) at 8 launches beside the solution's default (layernorm_backward_tuning --two-kernels);
# 2. swiglu fp16, 0.91-0.94x torch.compile / Liger at 2^22+ outputs in call 66 (bf16: 1.00x): the solution's flat kernel
#    at other launches and with approximate exp2 / rcp (launch_tuning --what swiglu), fp16 and, at 16384 x 8192, bf16;
# 3. Inductor's kernel for swiglu 16384 x 8192 fp16.
# What happened (113 s): Inductor's plan as written, 171 us against the solution's 157.9 and torch.compile's 138.0; best
# plan 149.8 (lnb_two_call67.txt). swiglu fp16: the flat kernel with approximate exp2 / rcp 183.6-183.9 us against 200.6
# (swiglu_tuning_call67_*.json); bf16 unchanged by it.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh67 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 560 - $(date +%s) + T0 )); }
timeout 200 python3 bench/layernorm_backward_tuning.py --two-kernels --split --shapes 4096x12288,8192x5120 \
  --dtypes bfloat16,float16 --fp32-shapes '' --rep-ms 10 --budget-s 150 --out $R/lnb_two_call67.json > $R/lnb_two_call67.txt 2>&1
step lnb_two $?
for spec in float16:16384x8192,4096x4096,1024x8192,4096x16384 bfloat16:16384x8192; do
  dt=${spec%%:*}; shapes=${spec##*:}
  [ $(left) -gt 60 ] || { step swiglu_$dt skipped; continue; }
  timeout $(( $(left) - 40 )) python3 bench/launch_tuning.py --what swiglu --dtype $dt --rep-ms 10 --budget-s 100 \
    --variants "sol-flat,flat BLOCK=1024 w=4" --shapes $shapes --out $R/swiglu_tuning_call67_$dt.json > /tmp/sw_$dt.txt 2>&1
  step swiglu_$dt $?; grep -E "SHAPE|BEST|rror" /tmp/sw_$dt.txt | head -20 >> $R/log.txt
done
timeout 60 python3 bench/inductor_code.py --out $R/ind --dtype float16 swiglu:16384x8192 > /tmp/ind.txt 2>&1; step inductor $?
tail -4 /tmp/ind.txt >> $R/log.txt
step done 0
