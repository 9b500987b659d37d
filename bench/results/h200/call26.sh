#!/usr/bin/env bash
# H200 call 26 (session of 2026-11-28, late night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call26.sh      (the device tool sets OUT)
# Call 25's Inductor sources did not come back (a call returns at most 8 files): the same
# points again, as one archive (bench/results/inductor_code_h200.tar.gz).
# What happened (25 s): ../inductor_code_h200.tar.gz, kept configs in ../inductor_code_call26.txt.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 200 python3 bench/inductor_code.py --out /tmp/ic softmax_backward:4096x16384 \
  softmax_backward:1024x16384 rmsnorm:1024x16384 rmsnorm:1024x32768 layernorm:4096x16384 swiglu:4096x16384 \
  softmax:1024x16384 row_sum:16384x2048 row_sum:1024x16384 > $R/inductor_log.txt 2>&1
echo "inductor rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
tar czf $R/inductor_code_h200.tar.gz -C /tmp ic
