#!/usr/bin/env bash
# H200 call 89 (session of 2026-11-29, fifth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call89.sh      (the device tool sets OUT)
# After call 88's launches went into the solutions (fused_adamw 1024 a program on 4 warps; transpose float32 tiles on
# 8 warps): 1. both drills' cases on the GPU as a user runs them; 2. peers.py fused_adamw in all three dtypes and
# transpose in float32 (replacing calls 85-86's figures).
# What happened (143 s): cases on the GPU: fused_adamw 22/22, transpose 14/14. Peers 89a: fused_adamw against torch.compile
# 0.98-1.03x (engine), 1.00-1.08x (CUDA-graph replay), 0.97-1.67x (stock do_bench); float32's 0.98-1.00x runs at
# 4.26 TB/s, the copy bandwidth. Peers 89b: transpose fp32 1.01-1.03x at 4096 x 4096 and up; 1024 x 1024 0.99x (engine),
# launch-bound under CUDA-graph replay (2.5 against 2.3 us), host-bound under stock do_bench.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh89 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R /tmp/runs; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for D in fused_adamw transpose; do
  timeout 120 python3 -m studio.drills.cli run $D @solution --json --timeout 110 > /tmp/runs/$D.json 2> /tmp/runs/$D.err
  step run_$D $?
  python3 -c "
import json, sys
d = json.load(open('/tmp/runs/$D.json')); bad = [c for c in d['cases'] if not c.get('passed')]
print(d['drill'], d['status'], 'cases %d/%d' % (len(d['cases']) - len(bad), len(d['cases'])), d.get('device'), d.get('flags'))
for c in bad: print('  FAILED', c.get('name'), (c.get('error') or '')[:200])
" >> $R/log.txt 2>&1
done
timeout 150 python3 bench/peers.py --drills fused_adamw --dtypes float32,bfloat16,float16 --runs 3 --rep-ms 15 --budget-s 110 \
  --out /tmp/peers_call89a.md > /tmp/pa.txt 2>&1; step peers_a $?
grep -v Warning /tmp/pa.txt | grep "wrote\|Error\|Not run" | tail -3 >> $R/log.txt; cp /tmp/peers_call89a.json /tmp/peers_call89a.md $R/
timeout 120 python3 bench/peers.py --drills transpose --dtypes float32 --runs 3 --rep-ms 15 --budget-s 90 \
  --out /tmp/peers_call89b.md > /tmp/pb.txt 2>&1; step peers_b $?
grep -v Warning /tmp/pb.txt | grep "wrote\|Error\|Not run" | tail -3 >> $R/log.txt; cp /tmp/peers_call89b.json /tmp/peers_call89b.md $R/
tar czf $R/runs_call89.tar.gz -C /tmp runs; step done 0
