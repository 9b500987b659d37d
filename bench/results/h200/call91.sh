#!/usr/bin/env bash
# H200 call 91 (session of 2026-11-29, fifth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call91.sh      (the device tool sets OUT)
# After call 90: causal_conv1d takes causal_conv1d_vec_kernel (2 x 1024 on 4 warps) for x contiguous along L and K <= 5.
# 1. the drill's cases on the GPU as a user runs them (three new: K = 7 and K = 5 on the CPU list, padded bf16 rows
#    of 4099 on the GPU list); 2. peers.py causal_conv1d in all three dtypes (replacing calls 55, 57b and 85).
# What happened (107 s): causal_conv1d 25/25 cases on the GPU (h200/cc_run_call91.json; its K = 5 and 7 CPU cases
# were taken out afterwards: the statement promises K of 2 to 4). Peers (copy bandwidth 4252
# GB/s): every point met under all three protocols, 1.5-16.1x the best peer; 8 x 4096 x 8192 at
# 3661 GB/s in bf16 (86%; was 2564), 3849 in fp16 (90.5%), 4215 in float32 (99%; was 3453).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh91 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 120 python3 -m studio.drills.cli run causal_conv1d @solution --json --timeout 110 > $R/cc_run_call91.json 2> /tmp/cc.err
step run $?
python3 -c "
import json
d = json.load(open('$R/cc_run_call91.json')); bad = [c for c in d['cases'] if not c.get('passed')]
print(d['drill'], d['status'], 'cases %d/%d' % (len(d['cases']) - len(bad), len(d['cases'])), d.get('device'), d.get('flags'))
for c in bad: print('  FAILED', c.get('name'), (c.get('error') or '')[:200])
" >> $R/log.txt 2>&1
timeout 150 python3 bench/peers.py --drills causal_conv1d --dtypes bfloat16,float16,float32 --runs 3 --rep-ms 15 \
  --budget-s 120 --out /tmp/peers_call91.md > /tmp/pa.txt 2>&1; step peers $?
grep -v Warning /tmp/pa.txt | grep "wrote\|Error\|Not run" | tail -3 >> $R/log.txt; cp /tmp/peers_call91.json /tmp/peers_call91.md $R/
step done 0
