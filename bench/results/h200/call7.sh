#!/usr/bin/env bash
# H200 call 7 (session of 2026-11-28 afternoon; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call7.sh      (the device tool sets OUT)
# After call 6's long_rows_tuning.py: softmax / rmsnorm / layernorm keep rows of up to 32768
# columns in registers and stream longer ones 8192 at a time with 16 warps (rmsnorm bf16: 8).
# 1. the three reference solutions against every case incl. gpu_cases (3 at once);
# 2. bench/peers.py over the long_rows sweep for those three and swiglu (not reached in call 6), bf16.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=.:/tmp/site STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
for d in softmax rmsnorm layernorm; do
  ( timeout 200 python3 -m studio.drills.cli run $d @solution --json --timeout 180 > $R/$d.json 2> $R/$d.stderr
    echo "$d rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt ) &
done
wait
python3 - $R > $R/summary.txt <<'PY'
import json, sys, pathlib
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    d = json.loads(f.read_text())
    cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
    print(f.stem, d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"),
          [c["name"] for c in cases if "long" in c["name"] or "wide" in c["name"]], bad[:1], d.get("error"))
PY
timeout 240 python3 bench/peers.py --drills softmax,rmsnorm,layernorm,swiglu --sweeps long_rows --dtypes bfloat16 \
  --runs 3 --rep-ms 30 --budget-s 200 --out $R/peers_call7.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
cd $OUT && tar czf h200_call7.tgz r && rm -rf r
