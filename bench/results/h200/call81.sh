#!/usr/bin/env bash
# H200 call 81 (session of 2026-11-29, fourth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call81.sh      (the device tool sets OUT)
# From call 80: bias_gelu's contiguous float32 inputs of 2^24+ values take the flat kernel (1024 values on 8 warps).
# 1. bias_gelu's cases and bench sweep on the GPU as a user runs them; 2. peers.py bias_gelu float32 at call 77's four
# points (replacing call 79's figures).
# What happened (69 s): bias_gelu 28/28 cases and 12/12 bench points (float32 16384 x 11008: 4263 GB/s), no flag;
# peers_call81: bias_gelu float32 1.00-1.04x torch.compile under all three protocols at 1024 x 4096 and up.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh81 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 150 python3 -m studio.drills.cli run bias_gelu @solution --bench --json --timeout 145 > /tmp/bg.json 2> /tmp/bg.err
step bg_run $?
python3 - /tmp/bg.json >> $R/log.txt <<'PY'
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
b = d.get("bench") or {}
for p in b.get("points") or []:
    print("  %-18s %-9s %8s ms  torch %8s  %s GB/s %s%s" % (
        "x".join(map(str, p["size"])), p["dtype"], p.get("ms") and "%.4f" % p["ms"], p.get("ref_ms") and "%.4f" % p["ref_ms"],
        p.get("gbps") and "%.0f" % p["gbps"], "" if p.get("passed") else "NOT PASSED " + str(p.get("error")),
        (" INVALID " + p["invalid"]) if p.get("invalid") else ""))
if d.get("error"):
    print("  ERROR", str(d["error"])[:300])
PY
tail -2 /tmp/bg.err >> $R/log.txt; cp /tmp/bg.json $R/bg_run_call81.json
timeout 150 python3 bench/peers.py --drills bias_gelu --dtypes float32 --sweeps model_rows \
  --sizes 1024x4096,4096x4096,4096x8192,16384x4096 --runs 3 --rep-ms 15 --budget-s 100 \
  --out /tmp/peers_call81.md > /tmp/pb.txt 2>&1; step peers $?
grep -v Warning /tmp/pb.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt
cp /tmp/peers_call81.json /tmp/peers_call81.md $R/ 2>/dev/null
step done 0
