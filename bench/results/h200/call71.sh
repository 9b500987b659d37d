#!/usr/bin/env bash
# H200 call 71 (session of 2026-11-29, third; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call71.sh      (the device tool sets OUT)
# From call 70: rmsnorm's float32 rows of 4096-8192 take the two-pass kernel for many rows, layernorm's float32 rows of
# 4096 run on 16 warps. 1. both drills' cases on the GPU; 2. peers.py rmsnorm,layernorm float32 at call 69b's four
# points (each contender checked against the float64 reference first; 4096 x 4096 up take the new launches).
# What happened (75 s): rmsnorm 23/23 and layernorm 22/22 cases on the GPU; peers_call71: rmsnorm float32 0.97-1.01x the
# best peer at 4096 x 4096 and up under all three protocols (16384 x 4096 125.3 against torch.compile's 125.2), layernorm
# 0.95-0.99x (16384 x 4096 129.8 against 126.0).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh71 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
for d in rmsnorm layernorm; do
  timeout 60 python3 -m studio.drills.cli run $d @solution --json --timeout 55 > /tmp/$d.json 2> /tmp/$d.err; step $d $?
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
b = d.get("bench") or {}
print("  bench: copy %s GB/s, note %s" % (b.get("copy_gbps"), b.get("note")))
for p in b.get("points") or []:
    base = p.get("baselines") or {}
    comp = base.get("torch.compile", {}).get("ms") if isinstance(base.get("torch.compile"), dict) else None
    print("  %-18s %-9s %8s ms  torch %8s  compile %8s  %s GB/s %s%s" % (
        "x".join(map(str, p["size"])), p["dtype"], p.get("ms") and "%.4f" % p["ms"], p.get("ref_ms") and "%.4f" % p["ref_ms"],
        comp and "%.4f" % comp, p.get("gbps") and "%.0f" % p["gbps"], "" if p.get("passed") else "NOT PASSED " + str(p.get("error")),
        (" INVALID " + p["invalid"]) if p.get("invalid") else ""))
if d.get("error"):
    print("  ERROR", str(d["error"])[:300])
PY
  cp /tmp/$d.json $R/${d}_run_call71.json
done
timeout 100 python3 bench/peers.py --drills rmsnorm,layernorm --dtypes float32 --sweeps model_rows \
  --sizes 1024x4096,4096x4096,4096x8192,16384x4096 --runs 3 --rep-ms 15 --budget-s 60 --out /tmp/peers_call71.md > /tmp/pb.txt 2>&1
step peers $?; grep -v Warning /tmp/pb.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt
cp /tmp/peers_call71.json $R/ 2>/dev/null
step done 0
