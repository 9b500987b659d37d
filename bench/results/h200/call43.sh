#!/usr/bin/env bash
# H200 call 43 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call43.sh      (the device tool sets OUT)
# The final matmul solution (TMA from 2^30; a fixed 64 x 128 x 128 tile below 2^33) through the app
# as a user runs it: `studio-drill run matmul @solution --bench --json`, every case, every bench point
# and its verdict, the flags; and torch's rate at 4096^3 and 8192^3 beside the judge's peak.
# What happened (134 s): passed, 40 of 40 case checks, no flags, 12 bench points valid (summary_call43.txt);
# torch 786 TFLOP/s at 4096^3, 737 at 8192^3 (peak_call43.txt). Speedup over torch 0.91-1.12x; 2048^3 fp16 0.91x.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh43 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
python3 - > $R/peak.txt 2>&1 <<'PY'
import torch
from studio.drills.harness import timing
for n in (4096, 8192):
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16); b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    med, p20, p80 = timing.quantiles(timing._samples(lambda: a @ b, 50, 300))
    print(f"torch bf16 {n}^3: median {med*1e3:.1f} us = {2*n**3/(med*1e-3)/1e12:.0f} TFLOP/s (p20 {p20*1e3:.1f}, p80 {p80*1e3:.1f} us)")
print("measure_matmul_tflops:", round(timing.measure_matmul_tflops()))
PY
echo "peak at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 480 python3 -m studio.drills.cli run matmul @solution --bench --json --timeout 470 > $R/matmul.json 2> $R/matmul.stderr
echo "matmul rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - $R/matmul.json > $R/summary.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("matmul", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
print("bench info:", {k: v for k, v in (d.get("bench") or {}).items() if k in ("copy_gbps", "matmul_tflops")})
for p in (d.get("bench") or {}).get("points") or []:
    print(" ", p.get("size"), p.get("dtype"), p.get("protocol", ""), "passed" if p.get("passed") else "NOT passed",
          "%.1f us" % (p["ms"] * 1e3) if p.get("ms") else "", "%.0f TFLOP/s" % p["tflops"] if p.get("tflops") else "",
          p.get("invalid") or p.get("error") or "")
print("flags:", d.get("flags"), d.get("flag_details"))
PY
