#!/usr/bin/env bash
# H200 call 22 (session of 2026-11-28 night; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call22.sh      (the device tool sets OUT)
# After call 21: layernorm with 1-128 rows loads weight and bias with x (WB_FIRST), 8 warps for
# rows of 4096-8192 and 16 for 16384. 1. the solution against every case incl. gpu_cases;
# 2. peers.py at 1, 16 and 128 tokens x hidden 512-16384 (bf16, fp16; three protocols).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 120 python3 -m studio.drills.cli run layernorm @solution --json --timeout 110 > $R/layernorm.json 2> $R/layernorm.stderr
echo "layernorm rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 300 python3 bench/peers.py --drills layernorm --sweeps model_rows --sizes 1x512,1x1024,1x2048,1x4096,1x8192,1x16384,16x512,16x1024,16x2048,16x4096,16x8192,16x16384,128x512,128x1024,128x2048,128x4096,128x8192,128x16384 \
  --dtypes bfloat16,float16 --runs 3 --rep-ms 15 --budget-s 260 --out $R/peers_call22.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
