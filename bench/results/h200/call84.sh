#!/usr/bin/env bash
# H200 call 84 (session of 2026-11-29, fourth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call84.sh      (the device tool sets OUT)
# From call 83: layernorm_backward's separate passes run the dweight / dbias kernel first, then dx (torch.compile's
# order). 1. the drill's cases on the GPU as a user runs them; 2. peers.py layernorm_backward bf16 + fp16 at 4096 x 12288
# (replacing call 75a's figures).
# What happened (64 s): layernorm_backward 24/24 cases on the GPU; peers_call84: bf16 1.04x / 1.03x / 1.03x torch.compile
# (engine / do_bench / CUDA-graph replay), fp16 1.00x / 0.99x / 0.99x (134.5 against 134.8 us under the engine's protocol).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh84 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 60 python3 -m studio.drills.cli run layernorm_backward @solution --json --timeout 55 > /tmp/lnb.json 2> /tmp/lnb.err
step lnb_run $?
python3 -c "
import json
d = json.load(open('/tmp/lnb.json')); bad = [c for c in d['cases'] if not c.get('passed')]
print(d['drill'], d['status'], 'cases %d/%d' % (len(d['cases']) - len(bad), len(d['cases'])), d.get('device'), d.get('flags'))
for c in bad: print('  FAILED', c.get('name'), (c.get('error') or '')[:200])
" >> $R/log.txt 2>&1
cp /tmp/lnb.json $R/lnb_run_call84.json
timeout 70 python3 bench/peers.py --drills layernorm_backward --dtypes bfloat16,float16 --sizes 4096x12288 --runs 3 \
  --rep-ms 15 --budget-s 50 --out /tmp/peers_call84.md > /tmp/pa.txt 2>&1; step peers $?
grep -v Warning /tmp/pa.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt
cp /tmp/peers_call84.json /tmp/peers_call84.md $R/ 2>/dev/null
step done 0
