#!/usr/bin/env bash
# H200 call 93 (session of 2026-11-29, sixth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call93.sh      (the device tool sets OUT)
# After call 92's changes (float32 decode attention on TF32 dots, flash_decoding float32 at 2 programs an SM;
# prefix_sum's carry loop 1024 on 4 warps for 2-byte rows, 8192 on 8 for float32; dropout's packed-rows kernel
# on 4 warps for 2-byte x):
# 1. `studio-drill run D @solution` on the GPU for the four drills (every case, GPU cases included);
# 2. bench/peers.py: flash_decoding and paged_attention_decode in float32; prefix_sum and dropout in bf16, fp16,
#    float32 (their drill.yaml bench sizes, three protocols);
# 3. bench/launch_tuning.py: dropout float32 (block, warps, the integer keep test).
# What happened (547 s): flash_decoding 23/23, paged_attention_decode 19/19, prefix_sum 25/25 passed; dropout's run
#   skipped (the 250 s guard; run in call 94). Peers: float32 decode 83-105% of copy at the large points, every
#   point met; prefix_sum 4096 x 16384 88% (bf16 / fp16), 90% (float32); dropout bf16 / fp16 2-5% faster.
#   dropout float32: 1024 on 4 warps fastest (65.0 / 505.0 against 67.4 / 524.0 us).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh93 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R /tmp/lt; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for D in flash_decoding paged_attention_decode prefix_sum dropout; do
  left=$(( 250 - ($(date +%s)-T0) )); [ $left -lt 20 ] && { step "skip run $D" 0; continue; }
  timeout $left python3 -m studio.drills.cli run $D @solution --json --timeout 200 > /tmp/run_$D.json 2> /tmp/run_$D.err
  step "run $D" $?
  python3 - "$D" >> $R/runs.txt <<'PY'
import json, sys
d = sys.argv[1]
try:
    r = json.load(open(f"/tmp/run_{d}.json"))
except Exception as e:
    print(d, "NO JSON", e, open(f"/tmp/run_{d}.err").read()[-800:]); sys.exit()
cases = r.get("cases", [])
print(d, r.get("status"), f"{sum(bool(c.get('passed')) for c in cases)}/{len(cases)}")
for c in cases:
    if not c.get("passed"):
        print("  FAILED", c.get("name"), str(c.get("error"))[:300])
PY
done
left=$(( 420 - ($(date +%s)-T0) ))
timeout $left python3 bench/peers.py --drills flash_decoding,paged_attention_decode --dtypes float32 --runs 3 \
  --rep-ms 15 --budget-s $(( left - 30 )) --out /tmp/peers_call93a.md > $R/peers_a_log.txt 2>&1; step peers_a $?
left=$(( 540 - ($(date +%s)-T0) ))
timeout $left python3 bench/peers.py --drills prefix_sum,dropout --dtypes bfloat16,float16,float32 --runs 3 \
  --rep-ms 15 --budget-s $(( left - 20 )) --out /tmp/peers_call93b.md > $R/peers_b_log.txt 2>&1; step peers_b $?
cp /tmp/peers_call93a.json /tmp/peers_call93a.md /tmp/peers_call93b.json /tmp/peers_call93b.md $R/ 2>/dev/null
left=$(( 580 - ($(date +%s)-T0) ))
[ $left -gt 40 ] && { timeout $left python3 bench/launch_tuning.py --what dropout --dtype float32 \
  --shapes 8192x4096,65536x4096 --rep-ms 10 --out /tmp/lt/lt_dropout_float32_call93.json > /tmp/lt.txt 2>&1
  step "dropout float32 tuning" $?; grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/log.txt; }
tar czf $R/lt_call93.tar.gz -C /tmp lt; step done 0
