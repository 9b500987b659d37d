#!/usr/bin/env bash
# H200 call 59 (session of 2026-11-29, morning; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call59.sh      (the device tool sets OUT)
# 1. fp8_quant: rows of up to 32768 now stay in registers (32 warps); the drill's cases on the GPU, then
#    peers.py at 8192 x 28672 (0.86-0.93x torch.compile before) and two neighbours, bf16 and fp16;
# 2. peers.py fp16 for the five drills calls 57-58 ran in bf16 only.
# What happened (209 s): fp8_quant's cases 27/27 on the GPU, but 8192 x 28672 no faster (256.1 against 254.4 us
# two-pass, call 55; torch.compile 235.8): the change was reverted (peers_call59a.md). peers_call59b: fp16 of
# the five drills (int8: 5 of 8 points, the budget ended).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh59 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 60 python3 -m studio.drills.cli run fp8_quant @solution --json --timeout 55 > /tmp/fp8.json 2> /tmp/fp8.err; step fp8_cases $?
python3 - /tmp/fp8.json >> $R/log.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("fp8_quant", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), "flags", d.get("flags"), d.get("device"))
for c in bad:
    print("  FAILED", c.get("name"), c.get("error"))
PY
timeout 50 python3 bench/peers.py --drills fp8_quant --sizes 8192x28672,4096x14336,16384x8192 --dtypes bfloat16,float16 \
  --runs 3 --rep-ms 15 --budget-s 40 --out /tmp/peers_call59a.md > /tmp/pa.txt 2>&1; step peers_a $?
timeout 160 python3 bench/peers.py --drills top_p_sampling,embedding_backward,layernorm_backward,int4_wo_matmul,int8_wo_matmul \
  --dtypes float16 --runs 3 --rep-ms 15 --budget-s 140 --out /tmp/peers_call59b.md > /tmp/pb.txt 2>&1; step peers_b $?
grep -v Warning /tmp/pb.txt | grep "wrote\|Error" | tail -5 >> $R/log.txt
cp /tmp/peers_call59a.json /tmp/peers_call59a.md /tmp/peers_call59b.json /tmp/peers_call59b.md $R/ 2>/dev/null
