#!/usr/bin/env bash
# H200 call 13 (session of 2026-11-28 evening; kind nvidia-h200; carry .clones):
#   OUT=/tmp/o bash bench/results/h200/call13.sh      (the device tool sets OUT)
# 1. bench/launch_tuning.py for bias_gelu (decode shapes: 0.76-0.81x torch.compile in call 10)
#    and row_sum (0.78-0.87x at decode and few long rows), bf16;
# 2. bench/cheats_gpu_check.py: every cheat, honest and bad-kernel fixture judged on the GPU
#    (the worker's allocation guard changed after call 6 and was not re-run on a GPU), and
#    GPU MODE's pmpp vectorsum correct solution with --bench (CUDA-graph trees inside).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
timeout 230 python3 bench/launch_tuning.py --what bias_gelu,row_sum --rep-ms 10 --budget-s 190 \
  --out $R/launch_tuning_call13.json > $R/launch_tuning_log.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
grep -E "^(SHAPE|BEST|SKIP)" $R/launch_tuning_log.txt > $R/launch_tuning_best.txt
python3 -m studio.drills.cli packs add .clones/reference-kernels --name rk > /dev/null
RK=.clones/reference-kernels/problems
( timeout 200 python3 -m studio.drills.cli run rk/pmpp/vectorsum_py $RK/pmpp/vectorsum_py/solutions/correct/pytorch.py \
    --bench --json --timeout 180 > $R/vectorsum_correct_bench.json 2> $R/vectorsum.stderr
  echo "vectorsum rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt ) &
timeout 230 python3 bench/cheats_gpu_check.py --jobs 6 --out $R/cheats_gpu_check.json > $R/cheats_gpu_check.txt 2>&1
echo "cheats rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
wait
python3 - $R > $R/summary.txt <<'PY'
import json, sys, pathlib
f = pathlib.Path(sys.argv[1]) / "vectorsum_correct_bench.json"
try:
    d = json.loads(f.read_text())
    cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
    pts = (d.get("bench") or {}).get("points") or []
    print("vectorsum", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), "flags", d.get("flags"),
          "points", [(p.get("label"), p.get("passed"), str(p.get("error") or p.get("invalid") or "")[:160]) for p in pts])
except Exception as exc:
    print("vectorsum: no result", exc)
PY
cd $OUT && tar czf h200_call13.tgz r && rm -rf r
