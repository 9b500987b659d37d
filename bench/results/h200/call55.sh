#!/usr/bin/env bash
# H200 call 55 (session of 2026-11-29; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call55.sh      (the device tool sets OUT)
# Why bias_gelu (83-88%) and cross_entropy (82-90%) read below 90% of the H200's copy bandwidth at
# their large sizes, where on the H100 they reached 91-96% and 91-103%: Nsight Compute through the
# app (`studio-drill profile`) at one large point each, for the SM and DRAM throughput and the warp
# stalls of the solution's kernel.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh55 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
if ! command -v ncu >/dev/null 2>&1; then
  for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda-*/bin/ncu; do
    [ -x "$c" ] && export STUDIO_NCU="$c" && break
  done
fi
for point in "bias_gelu 16384x16384" "cross_entropy 4096x32000"; do
  set -- $point
  timeout 75 python3 -m studio.drills.cli profile $1 @solution --size $2 --dtype bfloat16 --timeout 70 --json \
    > $R/profile_$1.json 2> $R/profile_$1.stderr
  echo "profile $1 rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
done
python3 - $R > $R/summary.txt <<'PY'
import json, sys, pathlib
for f in sorted(pathlib.Path(sys.argv[1]).glob("profile_*.json")):
    try:
        d = json.loads(f.read_text())
    except Exception as e:
        print(f.name, "unreadable", e); continue
    print(f.name, d.get("status"), d.get("error"))
    for side in ("solution", "baseline"):
        for k in (d.get(side) or {}).get("kernels") or []:
            m = k.get("metrics") or {}
            g = lambda n: m.get(n)
            stalls = sorted(((n, v) for n, v in m.items() if n.startswith("smsp__average_warps_issue_stalled_") and n.endswith("_per_issue_active.ratio")), key=lambda x: -x[1])[:4]
            print(" ", side, k.get("name", "")[:60], "dur_ns", g("gpu__time_duration.sum"), "dram%", g("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
                  "sm%", g("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "issue_active%", g("sm__inst_issued.avg.pct_of_peak_sustained_active") or g("smsp__issue_active.avg.pct_of_peak_sustained_active"),
                  "dram_read", g("dram__bytes_read.sum"), "occ%", g("sm__warps_active.avg.pct_of_peak_sustained_active"))
            print("    stalls", [(n.replace("smsp__average_warps_issue_stalled_", "").replace("_per_issue_active.ratio", ""), round(v, 2)) for n, v in stalls])
PY
