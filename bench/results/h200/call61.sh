#!/usr/bin/env bash
# H200 call 61 (session of 2026-11-29, second; kind nvidia-h200; carry .whl for Liger-Kernel):
#   OUT=/tmp/o bash bench/results/h200/call61.sh      (the device tool sets OUT)
# 1. peers.py residual_rmsnorm bf16 + fp16 (decode batches now on 16 warps, from call 60);
# 2. Nsight Compute (`studio-drill profile`) of the points below 90% of copy bandwidth or short of a peer:
#    bias_gelu 16384 x 8192, cross_entropy 4096 x 32000, softmax 4096 x 16384, fp8_quant 8192 x 28672 (bf16);
# 3. int4_wo_matmul as a user runs it with --bench, to the end this time (call 60 stopped it at 85 s).
# What happened (325 s): residual_rmsnorm peers bf16 + fp16 (peers_call61): the fp16 decode points 0.77-0.89x -> 0.96-0.99x
# Liger under CUDA-graph replay. Profiles (../ncu_h200/call61_*): bias_gelu issue-bound (84.5% of issue slots), cross_entropy
# DRAM 75% with 35% of warps resident, softmax 4096 x 16384 DRAM 73% with 46% resident, fp8_quant 8192 x 28672 reading 840 MB
# from DRAM where one pass reads 470. int4_wo_matmul --bench: 42/42, every point passed, no invalid timing; one non-blocking
# suspicious_speedup note (24.3x torch at 16 x 28672 x 8192 bf16), 131 s.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh61 PYTHONUNBUFFERED=1 STUDIO_NCU=/usr/local/cuda/bin/ncu
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  && export PYTHONPATH=.:/tmp/site
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
left() { echo $(( 580 - $(date +%s) + T0 )); }
timeout 100 python3 bench/peers.py --drills residual_rmsnorm --dtypes bfloat16,float16 --runs 3 --rep-ms 15 --budget-s 80 \
  --out /tmp/peers_call61.md > /tmp/pp.txt 2>&1; step peers $?
grep -v Warning /tmp/pp.txt | grep "wrote\|Error" | tail -3 >> $R/log.txt
for p in bias_gelu:16384x8192 cross_entropy:4096x32000 softmax:4096x16384 fp8_quant:8192x28672; do
  d=${p%%:*}; s=${p##*:}
  [ $(left) -gt 200 ] || { step prof_$d skipped; continue; }
  timeout 90 python3 -m studio.drills.cli profile $d @solution --size $s --dtype bfloat16 --timeout 85 --json \
    > $R/ncu_$d.json 2> /tmp/ncu_$d.err; step prof_$d $?
  python3 - $R/ncu_$d.json >> $R/ncu_summary.txt <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as exc:
    print(sys.argv[1], "no JSON:", exc); sys.exit()
print("==", d["subject"], d["size"], d["dtype"], d["status"], d.get("error"), "bytes model", d.get("bytes_model"), "check", d.get("check"))
KEYS = [("us", "gpu__time_duration.sum", 1e-3), ("rdMB", "dram__bytes_read.sum", 1e-6), ("wrMB", "dram__bytes_write.sum", 1e-6),
        ("dram%", "dram__throughput.avg.pct_of_peak_sustained_elapsed", 1), ("sm%", "sm__throughput.avg.pct_of_peak_sustained_elapsed", 1),
        ("issue%", "sm__issue_active.avg.pct_of_peak_sustained_elapsed", 1), ("xu%", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_elapsed", 1),
        ("fma%", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed", 1), ("alu%", "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed", 1),
        ("lsu%", "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed", 1), ("occ%", "sm__warps_active.avg.pct_of_peak_sustained_active", 1),
        ("l2hit%", "lts__t_sector_hit_rate.pct", 1), ("regs", "launch__registers_per_thread", 1), ("inst", "inst_executed", 1e-6)]
for side in ("solution", "baseline"):
    for k in (d.get(side) or {}).get("kernels") or []:
        m = k["metrics"]
        vals = " ".join("%s=%s" % (n, ("%.1f" % (m[key] * f)) if key in m else "-") for n, key, f in KEYS)
        stalls = sorted(((v, key.split("stalled_")[1].split("_per_")[0]) for key, v in m.items()
                         if key.startswith("smsp__average_warps_issue_stalled_")), reverse=True)[:4]
        print("  %s %s grid %s block %s: %s" % (side, k["name"][:40], k["grid"], k["block"], vals))
        print("     stalls:", ", ".join("%s %.2f" % (n, v) for v, n in stalls))
PY
done
[ $(left) -gt 60 ] && timeout $(( $(left) - 10 )) python3 -m studio.drills.cli run int4_wo_matmul @solution --bench --json \
  --timeout $(( $(left) - 15 )) > /tmp/int4.json 2> /tmp/int4.err; step int4 $?
python3 - /tmp/int4.json >> $R/log.txt <<'PY'
import json, sys
try:
    d = json.loads(open(sys.argv[1]).read())
except Exception as exc:
    print(sys.argv[1], "no JSON:", exc); sys.exit()
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print(d["drill"], d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), "%.0fs" % d["duration_s"])
for name, f in (d.get("flag_details") or {}).items():
    print("  FLAG", name, "blocking" if f["blocking"] else "", f["detail"][:300])
for c in bad:
    print("  FAILED", c.get("name"), c.get("phase"), (c.get("error") or "")[:200])
for p in (d.get("bench") or {}).get("points") or []:
    print("  %-18s %-9s %8s ms  torch %8s  %s GB/s %s%s" % ("x".join(map(str, p["size"])), p["dtype"], p.get("ms") and "%.4f" % p["ms"],
          p.get("ref_ms") and "%.4f" % p["ref_ms"], p.get("gbps") and "%.0f" % p["gbps"],
          "" if p.get("passed") else "NOT PASSED " + str(p.get("error")), (" INVALID " + p["invalid"]) if p.get("invalid") else ""))
if d.get("error"):
    print("  ERROR", str(d["error"])[:300])
PY
cp /tmp/peers_call61.json /tmp/peers_call61.md $R/ 2>/dev/null
