#!/usr/bin/env bash
# H200 call 5 (session of 2026-11-28 afternoon; kind nvidia-h200; carry .clones .whl):
#   OUT=/tmp/o bash bench/results/h200/call5.sh      (the device tool sets OUT)
# 1. #20: GPU MODE pmpp vectorsum (its correct pytorch.py, after the language-detection fix; its
#    cheat with --bench) and tests/drills/test_packs_gpu.py, never yet seen passing on a GPU;
# 2. #21: bench/peers.py, softmax and rmsnorm over their model-like sweeps in bf16, three
#    protocols, Liger-Kernel 0.8.5 carried as a wheel. Nothing else runs on the GPU meanwhile.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=.:/tmp/site STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; RK=.clones/reference-kernels/problems; T0=$(date +%s)
python3 -c 'import liger_kernel, torch, triton; print("liger ok; torch", torch.__version__, "triton", triton.__version__)' > $R/env.txt 2>&1
python3 -m studio.drills.cli packs add .clones/reference-kernels --name rk > /dev/null
go() { local name=$1; shift; timeout 200 python3 -m studio.drills.cli run "$@" --json --timeout 180 > $R/$name.json 2> $R/$name.stderr
  echo "$name rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
go vectorsum_correct rk/pmpp/vectorsum_py $RK/pmpp/vectorsum_py/solutions/correct/pytorch.py &
go vectorsum_cheat_bench rk/pmpp/vectorsum_py $RK/pmpp/vectorsum_py/solutions/wrong/cheat.py --bench &
timeout 230 python3 -m pytest -q -p no:cacheprovider -m gpu tests/drills/test_packs_gpu.py -rA > $R/test_packs_gpu.txt 2>&1
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
          ("first-bad [%s] %s" % (bad[0]["name"], (bad[0].get("error") or "")[:200])) if bad else "",
          ("error " + str(err.get("message"))[:200]) if err else "", "flags", d.get("flags"),
          ("points %d, failing: %s" % (len(pts), [str(p.get("error") or p.get("invalid"))[:120] for p in pts if not p.get("passed")][:2])) if pts else "")
PY
LEFT=$(( 560 - ($(date +%s)-T0) ))
echo "peers budget ${LEFT}s" >> $R/log.txt
timeout $(( LEFT + 20 )) python3 bench/peers.py --drills softmax,rmsnorm --dtypes bfloat16 --runs 3 --rep-ms 30 \
  --budget-s $(( LEFT - 40 )) --out $R/peers_call5.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
cd $OUT && tar czf h200_call5.tgz r && rm -rf r
