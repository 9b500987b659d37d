#!/usr/bin/env bash
# H200 call 82 (session of 2026-11-29, fourth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call82.sh      (the device tool sets OUT)
# layernorm's float32 two-pass rule as committed (rows of 8192 from 1024 rows; call 74 ran the cases with 2048) and its two
# new GPU cases (8192 x 3000 float32, 1024 x 8192 float32 strided rows): the drill's cases and bench sweep on the GPU as
# a user runs them. (Run twice: the first time the first case was 8192 x 3000 float32 *far from zero* (1000 + randn) and
# failed, ln_run_call82_first.json: max abs err 3.3e-4 against the float32 tolerance of 1e-5. torch's own float32
# layer_norm is 2e-4 off on such rows (and the solution's fused kernel 2.2e-4, under the interpreter): float32 cannot
# hold the mean of values near 1000 to that tolerance, so the case was ill-posed and is now plain randn.)
# What happened (42 s, second run): layernorm 50/50 cases (each checked before and after the sweep) and 14/14 bench points,
# no flag (float32 4096 x 8192: 66.9 us, 4013 GB/s on the two-pass kernel).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh82 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 200 python3 -m studio.drills.cli run layernorm @solution --bench --json --timeout 195 > /tmp/ln.json 2> /tmp/ln.err
step ln_run $?
python3 - /tmp/ln.json >> $R/log.txt <<'PY'
import json, sys
try:
    d = json.loads(open(sys.argv[1]).read())
except Exception as exc:
    print(sys.argv[1], "no JSON:", exc); sys.exit()
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print(d["drill"], d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), "%.0fs" % d["duration_s"])
print("  case names:", sorted(set(c.get("name") for c in cases)))
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
tail -2 /tmp/ln.err >> $R/log.txt; cp /tmp/ln.json $R/ln_run_call82.json
step done 0
