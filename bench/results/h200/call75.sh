#!/usr/bin/env bash
# H200 call 75 (session of 2026-11-29, fourth; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call75.sh      (the device tool sets OUT)
# layernorm_backward's dwdb kernel now unrolls its row loop 4 times (call 74: 4096 x 12288 whole 135.8 us bf16, 136.3
# fp16); layernorm float32 rows of 4096 (from 8192 rows) and 8192 (from 1024 rows) take the two-pass kernel (calls 73-74).
# 1. bench/lnb_kernels_apart.py around the unrolled launch (14 dwdb launches); 2. layernorm_backward's cases and bench
# sweep on the GPU as a user runs them; 3. peers.py layernorm_backward bf16 + fp16 at 4096 x 12288 (the one bench size
# on the separate passes); 4. peers.py layernorm float32 at 1024 / 4096 / 16384 x 4096 and 1024 / 4096 / 16384 x 8192.
# What happened (180 s): unroll 8 and the other 12 launches no faster than unroll 4 (56.2); layernorm_backward 48/48
# cases and 18/18 bench points (4096 x 12288: 136.6 us bf16, 137.0 fp16), no flag; peers_call75a: bf16 1.01-1.04x,
# fp16 0.97-1.00x torch.compile; peers_call75b: layernorm float32 0.97-1.00x the best peer at six points (16384 x 8192 0.98).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh75 PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 560 - $(date +%s) + T0 )); }
timeout 150 python3 bench/lnb_kernels_apart.py --shapes 4096x12288 --dtypes bfloat16,float16 --iters 20 --rep-ms 10 \
  --out $R/lnb_apart_call75.json > $R/lnb_apart_call75.txt 2>&1; step lnb_apart $?
timeout 150 python3 -m studio.drills.cli run layernorm_backward @solution --bench --json --timeout 145 > /tmp/lnb.json \
  2> /tmp/lnb.err; step lnb_run $?
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
for p in b.get("points") or []:
    print("  %-18s %-9s %8s ms  torch %8s  %s GB/s %s%s" % (
        "x".join(map(str, p["size"])), p["dtype"], p.get("ms") and "%.4f" % p["ms"], p.get("ref_ms") and "%.4f" % p["ref_ms"],
        p.get("gbps") and "%.0f" % p["gbps"], "" if p.get("passed") else "NOT PASSED " + str(p.get("error")),
        (" INVALID " + p["invalid"]) if p.get("invalid") else ""))
if d.get("error"):
    print("  ERROR", str(d["error"])[:300])
PY
tail -3 /tmp/lnb.err >> $R/log.txt; cp /tmp/lnb.json $R/lnb_run_call75.json
[ $(left) -gt 90 ] && { timeout 100 python3 bench/peers.py --drills layernorm_backward --dtypes bfloat16,float16 \
  --sizes 4096x12288 --runs 3 --rep-ms 15 --budget-s 80 --out /tmp/peers_call75a.md > /tmp/pa.txt 2>&1; step peers_a $?;
  grep -v Warning /tmp/pa.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt; }
[ $(left) -gt 60 ] && { timeout $(( $(left) - 5 )) python3 bench/peers.py --drills layernorm --dtypes float32 \
  --sweeps model_rows --sizes 1024x4096,4096x4096,16384x4096,1024x8192,4096x8192,16384x8192 --runs 3 --rep-ms 15 \
  --budget-s $(( $(left) - 40 )) --out /tmp/peers_call75b.md > /tmp/pb.txt 2>&1; step peers_b $?;
  grep -v Warning /tmp/pb.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt; }
cp /tmp/peers_call75a.json /tmp/peers_call75b.json $R/ 2>/dev/null
step done 0
