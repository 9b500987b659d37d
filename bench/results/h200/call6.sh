#!/usr/bin/env bash
# H200 call 6 (session of 2026-11-28 afternoon; kind nvidia-h200; carry .clones .whl):
#   OUT=/tmp/o bash bench/results/h200/call6.sh      (the device tool sets OUT)
# 1. #20: the worker no longer guards allocations made by torch's own runtime (CUDA-graph trees):
#    pmpp vectorsum and sort correct with --bench (torch.compile reduce-overhead), vectorsum's
#    cheat with --bench, and test_packs_gpu.py's new reduce-overhead test (3 jobs at once);
# 2. #21: bench/long_rows_tuning.py (launch shapes for rows > 16384), GPU quiet;
# 3. #21: bench/peers.py for flash_attention and matmul (against SDPA / cuBLAS), cross_entropy,
#    layernorm and swiglu, bf16, three protocols, Liger-Kernel 0.8.5 from a carried wheel.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=.:/tmp/site STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; RK=.clones/reference-kernels/problems; T0=$(date +%s)
python3 -m studio.drills.cli packs add .clones/reference-kernels --name rk > /dev/null
go() { local name=$1; shift; timeout 200 python3 -m studio.drills.cli run "$@" --json --timeout 180 > $R/$name.json 2> $R/$name.stderr
  echo "$name rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
go vectorsum_correct_bench rk/pmpp/vectorsum_py $RK/pmpp/vectorsum_py/solutions/correct/pytorch.py --bench &
go sort_correct_bench rk/pmpp/sort_py $RK/pmpp/sort_py/solutions/correct/ref.py --bench &
go vectorsum_cheat_bench rk/pmpp/vectorsum_py $RK/pmpp/vectorsum_py/solutions/wrong/cheat.py --bench &
timeout 200 python3 -m pytest -q -p no:cacheprovider -m gpu tests/drills/test_packs_gpu.py -rA \
  -k reduce_overhead > $R/test_packs_gpu.txt 2>&1
echo "pytest rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
wait
python3 - $R > $R/summary.txt <<'PY'
import json, sys, pathlib
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    try:
        d = json.loads(f.read_text())
    except Exception:
        print(f.stem, "NO JSON"); continue
    cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
    pts = (d.get("bench") or {}).get("points") or []
    err = d.get("error") or {}
    print(f.stem, d["status"], d.get("lang"), "cases %d/%d" % (len(cases) - len(bad), len(cases)),
          ("first-bad [%s] %s" % (bad[0]["name"], (bad[0].get("error") or "")[:300])) if bad else "",
          ("error " + str(err.get("message"))[:200]) if err else "", "flags", d.get("flags"),
          "points", [(p.get("label"), p.get("passed"), p.get("ms"), p.get("ref_ms"), str(p.get("error") or p.get("invalid") or "")[:160]) for p in pts])
PY
timeout 120 python3 bench/long_rows_tuning.py --out $R/long_rows_tuning.json > $R/long_rows_tuning.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
LEFT=$(( 565 - ($(date +%s)-T0) ))
echo "peers budget ${LEFT}s" >> $R/log.txt
timeout $(( LEFT + 15 )) python3 bench/peers.py --drills flash_attention,matmul,cross_entropy,layernorm,swiglu \
  --dtypes bfloat16 --runs 3 --rep-ms 30 --budget-s $(( LEFT - 45 )) --out $R/peers_call6.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
cd $OUT && tar czf h200_call6.tgz r && rm -rf r
