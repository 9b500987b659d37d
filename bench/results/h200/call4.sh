#!/usr/bin/env bash
# H200 call 4 (2026-11-28, device kind nvidia-h200; carry .clones), re-checks after call 3's findings:
# fused_adamw with its state drawn as a real run reaches it (every case incl. the 64M gpu_cases, fresh seeds);
# GPU MODE pmpp sort and vectorsum (torch.compile reduce-overhead: the same buffer back each call), the
# clone's correct and wrong files, vectorsum's cheat also with --bench (it samples 99% above 1M elements).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R; RK=.clones/reference-kernels/problems
python3 -m studio.drills.cli packs add .clones/reference-kernels --name rk > /dev/null
go() { local name=$1; shift; timeout 110 python3 -m studio.drills.cli run "$@" --json --timeout 100 > $R/$name.json 2> $R/$name.stderr
  echo "$name rc=$?" >> $R/log.txt; }
go fused_adamw fused_adamw @solution &
go sort_correct rk/pmpp/sort_py $RK/pmpp/sort_py/solutions/correct/ref.py &
go sort_wrong rk/pmpp/sort_py $RK/pmpp/sort_py/solutions/wrong/empty.py &
go vectorsum_correct rk/pmpp/vectorsum_py $RK/pmpp/vectorsum_py/solutions/correct/pytorch.py &
go vectorsum_cheat_bench rk/pmpp/vectorsum_py $RK/pmpp/vectorsum_py/solutions/wrong/cheat.py --bench &
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
    print(f.stem, d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)),
          ("first-bad [%s] %s" % (bad[0]["name"], (bad[0].get("error") or "")[:200])) if bad else "",
          ("error " + str(err.get("message"))[:200]) if err else "",
          ("points %d, failing: %s" % (len(pts), [str(p.get("error") or p.get("invalid"))[:120] for p in pts if not p.get("passed")][:2])) if pts else "")
PY
cat $R/summary.txt; cd $OUT && tar czf h200_call4.tgz r && rm -rf r
