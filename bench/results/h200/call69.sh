#!/usr/bin/env bash
# H200 call 69 (session of 2026-11-29, third; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call69.sh      (the device tool sets OUT)
# layernorm_backward now takes separate passes (a dx kernel, a dweight / dbias kernel: torch.compile's plan) for two-byte
# rows over 8192 columns (call 68: 4096 x 12288 157.6 -> 142.9 us bf16). 1. its cases (gpt3-bf16 2048 x 12288 takes the
# new path) and bench sweep on the GPU as a user runs them; 2. peers.py layernorm_backward bf16 + fp16; 3. the first
# float32 peer tables: softmax, rmsnorm, layernorm at four model_rows points, as far as time allows.
# What happened (235 s): layernorm_backward 24/24 cases and 18/18 bench points (4096 x 12288: 142.9 us bf16); peers_call69a:
# 4096 x 12288 0.93-1.00x torch.compile (was 0.87-0.92x); peers_call69b: float32 softmax met, rmsnorm and layernorm
# 0.95-0.98x at 4096 x 4096 and up.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh69 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 450 - $(date +%s) + T0 )); }
timeout 170 python3 -m studio.drills.cli run layernorm_backward @solution --bench --json --timeout 165 > /tmp/lnb.json 2> /tmp/lnb.err
step lnb_run $?
python3 - /tmp/lnb.json >> $R/log.txt <<'PY'
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
tail -3 /tmp/lnb.err >> $R/log.txt; cp /tmp/lnb.json $R/lnb_run_call69.json
[ $(left) -gt 100 ] && { timeout 130 python3 bench/peers.py --drills layernorm_backward --dtypes bfloat16,float16 --runs 3 \
  --rep-ms 15 --budget-s 100 --out /tmp/peers_call69a.md > /tmp/pa.txt 2>&1; step peers_a $?;
  grep -v Warning /tmp/pa.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt; }
[ $(left) -gt 80 ] && { timeout $(( $(left) - 5 )) python3 bench/peers.py --drills softmax,rmsnorm,layernorm --dtypes float32 \
  --sweeps model_rows --sizes 1024x4096,4096x4096,4096x8192,16384x4096 --runs 3 --rep-ms 15 --budget-s $(( $(left) - 45 )) \
  --out /tmp/peers_call69b.md > /tmp/pb.txt 2>&1; step peers_b $?;
  grep -v Warning /tmp/pb.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt; }
cp /tmp/peers_call69a.json /tmp/peers_call69b.json $R/ 2>/dev/null
step done 0
