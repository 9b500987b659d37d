#!/usr/bin/env bash
# H200 call 50 (session of 2026-11-29; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call50.sh      (the device tool sets OUT)
# flash_attention's solution now runs the Hopper kernels at the tiles calls 47-49 measured best
# (HOPPER_TILES: two consumer groups at head_dim 128, three at 64 non-causal, the one-partition
# 64-row tile at 64 causal). 1. the drill as a user runs it, with the bench (--bench): every case, no
# flags, every bench point valid; 2. peers.py on the bench sweep, bf16 and fp16, three protocols.
# What happened (163 s): 28 of 28 case checks, no flags, 12 bench points valid (summary_call50.txt);
# ../peers_h200/peers_call50.md: head_dim 128 met or met within noise at every point and protocol;
# head_dim 64 at 4096 met non-causal (1.00-1.05x), 0.90-0.95x causal; 4 x 32 x 1024 x 64 short (0.82x
# engine, 0.57-0.60x do_bench: the host's launch, ~46 us of Python a call, then cut to ~25).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 170 python3 -m studio.drills.cli run flash_attention @solution --bench --json --timeout 160 > /tmp/fa.json 2> $R/fa.stderr
echo "fa rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - /tmp/fa.json > $R/summary.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("flash_attention", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), "flags", d.get("flags"), d.get("device"), d.get("error"))
for c in cases:
    print(" ", c.get("name"), c.get("passed"), c.get("max_abs_err", c.get("error", "")))
print("bench info:", {k: v for k, v in (d.get("bench") or {}).items() if k in ("copy_gbps", "matmul_tflops")})
for p in (d.get("bench") or {}).get("points") or []:
    print(" ", p.get("size"), p.get("dtype"), p.get("protocol", ""), "passed" if p.get("passed") else "NOT passed",
          "%.1f us" % (p["ms"] * 1e3) if p.get("ms") else "", "%.0f TFLOP/s" % p["tflops"] if p.get("tflops") else "",
          "baseline %.1f us" % (p["baseline_ms"] * 1e3) if p.get("baseline_ms") else "", p.get("invalid") or p.get("error") or "")
print("flags:", d.get("flags"), d.get("flag_details"))
PY
timeout 330 python3 bench/peers.py --drills flash_attention --dtypes bfloat16,float16 --runs 3 --rep-ms 20 --budget-s 300 \
  --out /tmp/peers_call50.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; cp /tmp/peers_call50.json /tmp/peers_call50.md $R/
