#!/usr/bin/env bash
# H200 call 9 (session of 2026-11-28 afternoon; kind nvidia-h200; carry .whl):
#   OUT=/tmp/o bash bench/results/h200/call9.sh      (the device tool sets OUT)
# After call 8: rmsnorm and layernorm give a row of few-row inputs (M <= 128) block_n/256 warps.
# The two reference solutions against every case incl. gpu_cases, then bench/peers.py over
# model_rows (the decode rows among them changed), bf16.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=.:/tmp/site STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
for d in rmsnorm layernorm; do
  ( timeout 200 python3 -m studio.drills.cli run $d @solution --json --timeout 180 > $R/$d.json 2> $R/$d.stderr
    echo "$d rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt ) &
done
wait
python3 - $R > $R/summary.txt <<'PY'
import json, sys, pathlib
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    d = json.loads(f.read_text())
    cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
    print(f.stem, d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
PY
timeout 300 python3 bench/peers.py --drills rmsnorm,layernorm --sweeps model_rows --dtypes bfloat16 \
  --runs 3 --rep-ms 25 --budget-s 250 --out $R/peers_call9.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
cd $OUT && tar czf h200_call9.tgz r && rm -rf r
