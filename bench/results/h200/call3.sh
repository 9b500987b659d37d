#!/usr/bin/env bash
# H200 call 3 (2026-11-28, device kind nvidia-h200), from the repository root (the device tool sets OUT):
#   bash bench/results/h200/call3.sh      (carry: .clones = the user's GPU MODE and LeetGPU clones, git-ignored)
# 1. --bench of fused_adamw after ee29a5e (the baseline times its own copies of the inputs) and of dropout
#    after 13b5cda (one Philox call per 4 elements);
# 2. problem packs beyond the first runs (bench/packs_gpu2.sh: other GPU MODE groups, several-output LeetGPU
#    challenges) when that script is in the tree;
# 3. vector_add --bench --compile-baseline: torch.compile of the baseline as a second line (#21).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/bench $STUDIO_HOME; T0=$(date +%s)
one() { local d=$1 t=$2; shift 2; local s=$(date +%s)
  timeout $t python3 -m studio.drills.cli run $d @solution --json --timeout $((t-5)) --bench "$@" > $R/bench/$d.json 2>$R/bench/$d.stderr
  echo "bench $d rc=$? $(( $(date +%s)-s ))s" >> $R/log.txt; }
one fused_adamw 90
one dropout 110
echo "drills done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
if [ -f bench/packs_gpu2.sh ]; then
  CLONES=.clones OUT=$R JOBS=${JOBS:-8} BUDGET_S=225 CHECK_BUDGET_S=165 timeout 235 bash bench/packs_gpu2.sh > $R/packs2.log 2>&1
  echo "packs2 rc=$? done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
fi
one vector_add 100 --compile-baseline
echo "all done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - $R > $R/summary.txt 2>&1 <<'PY'
import json, sys, pathlib
root = pathlib.Path(sys.argv[1])
for f in sorted((root / "bench").glob("*.json")):
    try:
        d = json.loads(f.read_text())
    except Exception as exc:
        print(f.stem, "NO JSON", (root / "bench" / (f.stem + ".stderr")).read_text()[-400:].replace("\n", " | ")); continue
    cases = d.get("cases") or []
    bad = [c.get("name") for c in cases if not c.get("passed")]
    err = d.get("error") or {}
    print(f.stem, d.get("status"), f"cases {len(cases)-len(bad)}/{len(cases)}", ("FAILED %s" % bad[:6]) if bad else "",
          ("error " + str(err.get("message", err))[:400]) if err else "")
    for p in (d.get("bench") or {}).get("points") or []:
        ms, ref = p.get("ms") or 0, p.get("ref_ms") or 0
        extra = {k: round(v["ms"] * 1e3, 1) for k, v in (p.get("baselines") or {}).items() if isinstance(v, dict) and v.get("ms")}
        print("   ", p.get("size"), p.get("dtype"), "ok" if p.get("passed") else "NOT", "us %.1f ref %.1f" % (ms * 1e3, ref * 1e3),
              "GB/s %.0f" % (p.get("gbps") or 0), "pct %.1f" % (p.get("pct_of_peak") or 0), "x%.2f" % (ref / ms if ms else 0),
              "baselines_us %s" % extra if len(extra) > 1 else "", str(p.get("invalid") or p.get("error") or "")[:300])
PY
[ -f $R/packs2/summary.txt ] && cat $R/packs2/summary.txt >> $R/summary.txt
cd $OUT && tar czf h200_call3.tgz r && rm -rf r
