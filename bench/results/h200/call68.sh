#!/usr/bin/env bash
# H200 call 68 (session of 2026-11-29, third; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call68.sh      (the device tool sets OUT)
# swiglu's flat kernel (2^23+ outputs) now takes 2048 outputs a program with the approximate exp2 / rcp on a GPU
# (call 67: fp16 16384 x 8192 200.6 -> 183.9 us, bf16 unchanged). 1. its cases and bench sweep on the GPU as a user runs
# them; 2. peers.py swiglu bf16 + fp16, every point; 3. layernorm_backward 4096 x 12288: bench/lnb_two_kernels.py's
# plans again, with the dx kernel's N compiled in and 32-bit offsets (as Inductor's), bf16 and fp16.
# What happened (305 s): swiglu 24/24 cases and 22/22 bench points, no flag; the dx kernel with N compiled in: 142.9 us
# bf16, 142.4 fp16 (4096-column chunks, 8 warps; lnb_two_call68.txt); peers_call68: swiglu fp16 0.99-1.00x at 2^23+ outputs.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh68 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 560 - $(date +%s) + T0 )); }
timeout 150 python3 -m studio.drills.cli run swiglu @solution --bench --json --timeout 145 > /tmp/sw.json 2> /tmp/sw.err; step swiglu_run $?
python3 - /tmp/sw.json >> $R/log.txt <<'PY'
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
tail -3 /tmp/sw.err >> $R/log.txt; cp /tmp/sw.json $R/swiglu_run_call68.json
timeout 100 python3 bench/layernorm_backward_tuning.py --two-kernels --split --shapes 4096x12288 \
  --dtypes bfloat16,float16 --fp32-shapes '' --rep-ms 10 --budget-s 70 --out $R/lnb_two_call68.json > $R/lnb_two_call68.txt 2>&1
step lnb_two $?
[ $(left) -gt 100 ] && { timeout $(( $(left) - 5 )) python3 bench/peers.py --drills swiglu --dtypes bfloat16,float16 --runs 3 \
  --rep-ms 15 --budget-s $(( $(left) - 40 )) --out /tmp/peers_call68.md > /tmp/pb.txt 2>&1; step peers $?;
  grep -v Warning /tmp/pb.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt; }
cp /tmp/peers_call68.json $R/ 2>/dev/null
step done 0
