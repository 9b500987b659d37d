#!/usr/bin/env bash
# H200 call 94 (session of 2026-11-29, sixth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call94.sh      (the device tool sets OUT)
# 1. `studio-drill run D @solution` on the GPU: prefix_sum (few long rows now take a single-pass scan with
#    decoupled look-back; new GPU case 2 x 4194305 float32) and dropout (call 93 ran out of time before it;
#    float32 packed rows now 1024 on 4 warps, 2-byte 4096 on 4);
# 2. bench/launch_tuning.py prefix_sum 64 x 262144 and 4 x 4194304 (float32, bf16): look-back chunk and warps
#    against reduce-then-scan (51-57% of copy bandwidth in call 93);
# 3. bench/launch_tuning.py flash_decoding bf16 at 1 x 32K and 8 x 4K tokens, paged_attention_decode bf16 at
#    1 x 32K (65-77% of copy bandwidth, calls 55-57): programs per SM;
# 4. bench/peers.py: prefix_sum bf16 / fp16 / float32, dropout float32.
# What happened (211 s): prefix_sum 26/26 (look-back path and the new case), dropout 27/27 passed. The one-at-a-time
#   look-back was slower than reduce-then-scan in five of six points (64 x 262144 bf16 45.0 against 29.8 us;
#   float32 48.1 against 54.5 the exception): reverted, its peers run (a) not merged. decode bf16 programs per SM:
#   nothing more than 3% faster. dropout float32 peers: 98-100% of copy.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh94 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R /tmp/lt; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for D in prefix_sum dropout; do
  timeout 150 python3 -m studio.drills.cli run $D @solution --json --timeout 120 > /tmp/run_$D.json 2> /tmp/run_$D.err
  step "run $D" $?
  python3 - "$D" >> $R/log.txt <<'PY'
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
tune() {  # drill dtype shapes [variants]
  left=$(( $4 - ($(date +%s)-T0) )); [ $left -lt 20 ] && { step "skip $1 $2 $3" 0; return; }
  timeout $left python3 bench/launch_tuning.py --what $1 --dtype $2 --shapes $3 --rep-ms 10 \
    --out /tmp/lt/lt_$1_$2_call94.json > /tmp/lt.txt 2>&1; step "$1 $2 $3" $?
  grep "^BEST\|^SHAPE\|Error" /tmp/lt.txt >> $R/log.txt
}
tune prefix_sum float32 64x262144,4x4194304 250
tune prefix_sum bfloat16 64x262144,4x4194304 290
tune flash_decoding bfloat16 1x32x8x128x32768,8x32x8x128x4096 340
tune paged_attention_decode bfloat16 1x32x8x128x32768 370
left=$(( 450 - ($(date +%s)-T0) ))
timeout $left python3 bench/peers.py --drills prefix_sum --dtypes bfloat16,float16,float32 --runs 3 --rep-ms 15 \
  --budget-s $(( left - 15 )) --out /tmp/peers_call94a.md > $R/peers_a_log.txt 2>&1; step peers_a $?
left=$(( 510 - ($(date +%s)-T0) ))
timeout $left python3 bench/peers.py --drills dropout --dtypes float32 --runs 3 --rep-ms 15 \
  --budget-s $(( left - 10 )) --out /tmp/peers_call94b.md > $R/peers_b_log.txt 2>&1; step peers_b $?
cp /tmp/peers_call94a.json /tmp/peers_call94a.md /tmp/peers_call94b.json /tmp/peers_call94b.md $R/ 2>/dev/null
tar czf $R/lt_call94.tar.gz -C /tmp lt; step done 0
