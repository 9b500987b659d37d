#!/usr/bin/env bash
# H200 call 62 (session of 2026-11-29, second; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call62.sh      (the device tool sets OUT)
# From call 61's Nsight Compute profiles: fp8_quant 8192 x 28672 reads 840 MB from DRAM where one pass reads 470
# (its second pass misses L2), and cross_entropy 4096 x 32000 keeps DRAM 75% busy with 35% of warps resident.
# bench/launch_tuning.py --what fp8_quant,cross_entropy (bf16): two-pass launches with L2 hints / tl.range pipelining,
# and cross_entropy's chunk x warps x pipelining stages; then int8_wo_matmul as a user runs it, to read its flag.
# What happened (140 s): fp8_quant 8192 x 28672: 4096 on 16 warps with the hints 214.0 us against the solution's 256.8;
# cross_entropy: 3 stages on 4 warps 68.5 / 245.3 us against 74.6 / 280.6 (tuning_summary_call62.txt, fp8_tuning_call62.json,
# ce_tuning_call62.json) -> both solutions changed. int8 --bench ran past this script's 85 s limit (timeout; run again in 63).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh62 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 400 - $(date +%s) + T0 )); }
for d in fp8_quant cross_entropy; do
  timeout 170 python3 bench/launch_tuning.py --what $d --dtype bfloat16 --rep-ms 10 --budget-s 100 \
    --out $R/tuning_$d.json > /tmp/t_$d.txt 2>&1; step $d $?
  grep "SHAPE\|BEST\|Error\|SKIP" /tmp/t_$d.txt >> $R/summary.txt
done
[ $(left) -gt 90 ] && { timeout 90 python3 -m studio.drills.cli run int8_wo_matmul @solution --bench --json --timeout 85 \
  > /tmp/int8.json 2> /tmp/int8.err; step int8 $?; python3 -c "
import json; d = json.load(open('/tmp/int8.json')); print('int8', d['status'], d.get('flag_details'))" >> $R/log.txt; }
