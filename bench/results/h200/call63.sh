#!/usr/bin/env bash
# H200 call 63 (session of 2026-11-29, second; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call63.sh      (the device tool sets OUT)
# After call 62's retuning: fp8_quant's two-pass path (4096-element chunks on 16 warps, L2 hints) and cross_entropy
# for 2-byte logits (3-stage pipelined chunk loop, 4 warps).
# 1. both drills' cases on the GPU as a user runs them (no bench);
# 2. peers.py for both, bf16 and fp16, at every point;
# 3. int8_wo_matmul with --bench to the end, to read the flag call 60 could not print (if time is left).
# What happened (274 s): fp8_quant 25/25, cross_entropy 16/16 on the GPU; peers_call63: all 60 fp8_quant and 30 cross_entropy
# point-protocol figures met (fp8 8192 x 28672 1.07-1.13x torch.compile; Liger was not installed: no carry). int8 --bench:
# 34/34, 16 points passed, no invalid timing; its flag: suspicious_speedup, 16.3x torch at 16 x 28672 x 8192 fp16 (98 s).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh63 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 560 - $(date +%s) + T0 )); }
for d in fp8_quant cross_entropy; do
  timeout 60 python3 -m studio.drills.cli run $d @solution --json --timeout 55 > /tmp/$d.json 2> /tmp/$d.err; step $d $?
  python3 -c "
import json; d = json.load(open('/tmp/$d.json')); c = d.get('cases') or []
print('$d', d['status'], 'cases %d/%d' % (sum(x['passed'] for x in c), len(c)), d.get('device'), d.get('flag_details'))
for x in c:
    if not x['passed']: print('  FAILED', x['name'], x.get('error'))" >> $R/log.txt
done
timeout 200 python3 bench/peers.py --drills fp8_quant,cross_entropy --dtypes bfloat16,float16 --runs 3 --rep-ms 15 \
  --budget-s 180 --out /tmp/peers_call63.md > /tmp/pp.txt 2>&1; step peers $?
grep -v Warning /tmp/pp.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt
cp /tmp/peers_call63.json /tmp/peers_call63.md $R/ 2>/dev/null
[ $(left) -gt 150 ] && { timeout $(( $(left) - 5 )) python3 -m studio.drills.cli run int8_wo_matmul @solution --bench --json \
  --timeout $(( $(left) - 10 )) > /tmp/int8.json 2> /tmp/int8.err; step int8 $?; python3 -c "
import json; d = json.load(open('/tmp/int8.json')); c = d.get('cases') or []
print('int8', d['status'], 'cases %d/%d' % (sum(x['passed'] for x in c), len(c)), '%.0fs' % d['duration_s'], d.get('flag_details'))
for p in (d.get('bench') or {}).get('points') or []:
    print('  ', 'x'.join(map(str, p['size'])), p['dtype'], p.get('ms'), p.get('ref_ms'), p.get('passed'), p.get('invalid'))" >> $R/log.txt; }
