#!/usr/bin/env bash
# H200 call 87 (session of 2026-11-29, fifth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call87.sh      (the device tool sets OUT)
# After call 86's launches went into the solutions (layernorm_backward float32 rows of 4097-8192 whole on 16
# warps; fp8_quant float32 rows past 16384 on 32 warps without hints; histogram from 2^23 values 8192 a step,
# 8 programs an SM; vector_add float32 1024 on 4 warps):
# 1. each changed drill's cases on the GPU as a user runs them (studio-drill run D @solution);
# 2. launch_tuning.py --what fused_adamw, float32 and bf16 (call 86: 0.98x torch.compile of the update in plain ops);
# 3. peers.py at the changed points: layernorm_backward 8192 x 5120, fp8_quant 8192 x 28672 and vector_add in float32
#    (87a); histogram in all three dtypes (87b).
# What happened (182 s): cases on the GPU: layernorm_backward 26/26, fp8_quant 25/25, histogram 25/25, vector_add
# 14/14. The fused_adamw tuning read every variant as wrong (torch's op, timed first, had stepped the inputs the
# variants were checked on: redone in call 88). Peers 87a: layernorm_backward 8192 x 5120 fp32 1.05-1.31x Liger,
# fp8_quant 8192 x 28672 fp32 1.19-1.20x torch.compile, vector_add fp32 met or within noise. Peers 87b: histogram
# 1.08-1.81x at every point in three dtypes but float32 65536 under stock do_bench (host-bound, 28.8 us).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh87 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R /tmp/lt /tmp/runs; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for D in layernorm_backward fp8_quant histogram vector_add; do
  timeout 120 python3 -m studio.drills.cli run $D @solution --json --timeout 110 > /tmp/runs/$D.json 2> /tmp/runs/$D.err
  step run_$D $?
  python3 -c "
import json, sys
d = json.load(open('/tmp/runs/$D.json')); bad = [c for c in d['cases'] if not c.get('passed')]
print(d['drill'], d['status'], 'cases %d/%d' % (len(d['cases']) - len(bad), len(d['cases'])), d.get('device'), d.get('flags'))
for c in bad: print('  FAILED', c.get('name'), (c.get('error') or '')[:200])
" >> $R/log.txt 2>&1
done
for DT in float32 bfloat16; do
  timeout 150 python3 bench/launch_tuning.py --what fused_adamw --dtype $DT --rep-ms 10 \
    --out /tmp/lt/lt_fused_adamw_${DT}_call87.json > /tmp/lt.txt 2>&1; step adamw_$DT $?
  grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/best_call87.txt
done
timeout 200 python3 bench/peers.py --drills layernorm_backward,fp8_quant,vector_add --dtypes float32 \
  --sizes 8192x5120,8192x28672,4096,65536,1048576,16777216,134217728 --runs 3 --rep-ms 15 --budget-s 150 \
  --out /tmp/peers_call87a.md > /tmp/pa.txt 2>&1; step peers_a $?
grep -v Warning /tmp/pa.txt | grep "wrote\|Error\|Not run" | tail -3 >> $R/log.txt; cp /tmp/peers_call87a.json /tmp/peers_call87a.md $R/
left=$(( 570 - ($(date +%s)-T0) ))
timeout $left python3 bench/peers.py --drills histogram --dtypes float32,bfloat16,float16 --runs 3 --rep-ms 15 \
  --budget-s $(( left - 30 )) --out /tmp/peers_call87b.md > /tmp/pb.txt 2>&1; step peers_b $?
grep -v Warning /tmp/pb.txt | grep "wrote\|Error\|Not run" | tail -3 >> $R/log.txt; cp /tmp/peers_call87b.json /tmp/peers_call87b.md $R/
tar czf $R/runs_call87.tar.gz -C /tmp lt runs; step done 0
