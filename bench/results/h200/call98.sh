#!/usr/bin/env bash
# H200 call 98 (session of 2026-11-29, sixth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call98.sh      (the device tool sets OUT)
# After call 97: int8_wo_matmul's split-K decode kernel dequantizes bf16 weights with the conversion instruction
# (FAST integer ops for fp16 only).
# 1. `studio-drill run int8_wo_matmul @solution` on the GPU (every case);
# 2. bench/peers.py int8_wo_matmul bf16 at the decode sizes (M <= 64; 4096^3 takes the unchanged GEMM path).
# What happened (89 s): int8_wo_matmul 17/17 passed; peers bf16 1 x 28672 x 8192 93.8 us (59% of copy, 3.15x
#   torch.compile), 16 x 28672 x 8192 89.5 (62%); every decode size met under all three protocols.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh98 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 150 python3 -m studio.drills.cli run int8_wo_matmul @solution --json --timeout 120 > /tmp/run.json 2> /tmp/run.err
step "run int8_wo_matmul" $?
python3 - >> $R/log.txt <<'PY'
import json
try:
    r = json.load(open("/tmp/run.json"))
except Exception as e:
    print("NO JSON", e, open("/tmp/run.err").read()[-800:]); raise SystemExit
cases = r.get("cases", [])
print("int8_wo_matmul", r.get("status"), f"{sum(bool(c.get('passed')) for c in cases)}/{len(cases)}")
for c in cases:
    if not c.get("passed"):
        print("  FAILED", c.get("name"), str(c.get("error"))[:300])
PY
left=$(( 250 - ($(date +%s)-T0) ))
timeout $left python3 bench/peers.py --drills int8_wo_matmul --dtypes bfloat16 --runs 3 --rep-ms 15 \
  --sizes 1x4096x4096,16x4096x4096,1x11008x4096,16x14336x4096,64x8192x8192,1x28672x8192,16x28672x8192 \
  --budget-s $(( left - 15 )) --out /tmp/peers_call98.md > $R/peers_log.txt 2>&1; step peers $?
cp /tmp/peers_call98.json /tmp/peers_call98.md $R/ 2>/dev/null; step done 0
