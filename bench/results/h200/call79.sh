#!/usr/bin/env bash
# H200 call 79 (session of 2026-11-29, fourth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call79.sh      (the device tool sets OUT)
# From call 78: swiglu's float32 flat kernel takes 1024 outputs on 8 warps, bias_gelu's float32 tiles one row of 1024 on
# 4 warps. 1. both drills' cases on the GPU; 2. peers.py swiglu,bias_gelu float32 at call 77's four points (replacing
# call 77's figures of the two).
# What happened (74 s): swiglu 24/24 and bias_gelu 14/14 cases on the GPU; peers_call79: swiglu float32 0.99-1.00x
# torch.compile at 4096 x 4096 and up (engine), bias_gelu 0.96-0.99x.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh79 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 400 - $(date +%s) + T0 )); }
for d in swiglu bias_gelu; do
  timeout 90 python3 -m studio.drills.cli run $d @solution --json --timeout 85 > /tmp/$d.json 2> /tmp/$d.err; step $d $?
python3 - /tmp/$d.json >> $R/log.txt <<'PY'
import json, sys
try:
    d = json.loads(open(sys.argv[1]).read())
except Exception as exc:
    print(sys.argv[1], "no JSON:", exc); sys.exit()
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print(d["drill"], d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), "%.0fs" % d["duration_s"])
for f in d.get("flags") or []:
    print("  FLAG", f, d.get("flag_details", {}).get(f))
for c in bad:
    print("  FAILED", c.get("name"), c.get("phase"), (c.get("error") or "")[:200])
if d.get("error"):
    print("  ERROR", str(d["error"])[:300])
PY
  tail -2 /tmp/$d.err >> $R/log.txt
done
timeout $(( $(left) - 5 )) python3 bench/peers.py --drills swiglu,bias_gelu --dtypes float32 --sweeps model_rows \
  --sizes 1024x4096,4096x4096,4096x8192,16384x4096 --runs 3 --rep-ms 15 --budget-s $(( $(left) - 60 )) \
  --out /tmp/peers_call79.md > /tmp/pb.txt 2>&1; step peers $?
grep -v Warning /tmp/pb.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt
cp /tmp/peers_call79.json /tmp/peers_call79.md $R/ 2>/dev/null
step done 0
