#!/usr/bin/env bash
# H200 call 27 (session of 2026-11-28, late night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call27.sh      (the device tool sets OUT)
# bench/inductor_like.py: Inductor's way of writing the row kernels (two passes over the row,
# the second from L2; shape as constants; 32-bit offsets), from call 26's sources, against
# the solutions and torch.compile itself, at the points where torch.compile leads.
# What happened (102 s): ../inductor_like_call27.json; the table is in ../launch_tuning.md.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 420 python3 bench/inductor_like.py --rep-ms 15 --out $R/inductor_like_call27.json > $R/inductor_like_log.txt 2>&1
echo "inductor_like rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
grep -h "^BEST" $R/*_log.txt > $R/best.txt
