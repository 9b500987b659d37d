#!/usr/bin/env bash
# CUDA C++ drills on a GPU: build and check every reference CUDA solution, every CUDA starter
# and the bad kernels of tests/drills/cuda_bad in parallel (this also fills the build cache),
# then time the reference solutions one at a time with --bench (cache hits), then optionally
# run the GPU-marked tests.
#
#   PYTHONPATH=. STUDIO_HOME=/tmp/sh OUT=/tmp/out bash bench/cuda_drills_gpu.sh [check] [bench] [pytest]
#
# check:  $OUT/check/<name>.json for each run (studio-drill run ... --json), wall time of each
#         and of the whole parallel phase in $OUT/check/times.txt.
# bench:  $OUT/bench/<drill>.json from `studio-drill run <drill> @solution-cuda --bench --json`.
# pytest: pytest -m gpu tests/drills/test_cuda_gpu.py, output in $OUT/pytest.txt.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH="${PYTHONPATH:-.}"
export STUDIO_HOME="${STUDIO_HOME:-/tmp/sh}"
OUT="${OUT:-bench/out/cuda_drills}"
JOBS="${JOBS:-12}"
PHASES=("$@"); [ "${#PHASES[@]}" -eq 0 ] && PHASES=(check bench)
mkdir -p "$OUT/check" "$OUT/bench" "$STUDIO_HOME"

solutions=$(python -m studio.drills.cli list --json | python -c \
  'import json,sys; print(" ".join(d["id"] for d in json.load(sys.stdin) if d.get("solution_cuda")))')
drills=$(python -m studio.drills.cli list --json | python -c \
  'import json,sys; print(" ".join(d["id"] for d in json.load(sys.stdin) if "error" not in d))')

one() {  # name drill file [extra...]
  local name=$1 drill=$2 file=$3; shift 3
  local start; start=$(date +%s%N)
  python -m studio.drills.cli run "$drill" "$file" --json "$@" >"$OUT/check/$name.json" 2>"$OUT/check/$name.stderr"
  local code=$?
  echo "$name exit=$code $(( ($(date +%s%N) - start) / 1000000 )) ms" >>"$OUT/check/times.txt"
}
export -f one
export OUT

for phase in "${PHASES[@]}"; do
  case "$phase" in
  check)
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    python -m studio.drills.cli languages | tee "$OUT/languages.txt"
    {
      for d in $solutions; do echo "solution-$d $d @solution-cuda --timeout 500"; done
      for d in $drills; do echo "starter-$d $d @starter-cuda --timeout 500"; done
      for f in tests/drills/cuda_bad/*; do
        base=$(basename "$f"); drill=vector_add
        case "$base" in calls_cublas.cu) drill=matmul ;; esac
        extra="--timeout 500"; [ "$base" = hangs.cu ] && extra="--timeout 30"
        echo "bad-${base%.*} $drill $f $extra"
      done
    } >"$OUT/check/plan.txt"
    start=$(date +%s)
    xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _ <"$OUT/check/plan.txt"
    echo "parallel check phase: $(( $(date +%s) - start )) s with $JOBS jobs" | tee -a "$OUT/check/times.txt"
    # The same code again: a cache hit.
    one cached-vector_add vector_add @solution-cuda
    tail -1 "$OUT/check/times.txt"
    ;;
  bench)
    for d in ${BENCH_DRILLS:-$solutions}; do
      start=$(date +%s)
      python -m studio.drills.cli run "$d" @solution-cuda --bench --json --timeout 500 \
        >"$OUT/bench/$d.json" 2>"$OUT/bench/$d.stderr"
      echo "bench $d exit=$? $(( $(date +%s) - start )) s" | tee -a "$OUT/bench/times.txt"
    done
    ;;
  pytest)
    python -m pytest -q -m gpu -p no:cacheprovider tests/drills/test_cuda_gpu.py 2>&1 | tee "$OUT/pytest.txt" | tail -40
    ;;
  esac
done

python - "$OUT" <<'PY'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
for sub in ("check", "bench"):
    for f in sorted((out / sub).glob("*.json")):
        try:
            d = json.loads(f.read_text())
        except Exception as exc:  # noqa: BLE001
            print(f"{sub}/{f.stem}: no JSON ({type(exc).__name__})"); continue
        err = (d.get("error") or {}).get("message", "") if d.get("error") else ""
        builds = ", ".join(f"{'cached' if b['cached'] else 'built'} {b['seconds']:.1f}s" for b in d.get("builds") or [])
        failed = [c for c in d.get("cases") or [] if not c["passed"]]
        first = f" first failure {failed[0]['name']}: {(failed[0]['error'] or '')[:160]}" if failed else ""
        flags = ",".join(fl["name"] for fl in d.get("flags") or [])
        line = f"{sub}/{f.stem}: {d.get('status')} [{builds}] flags={flags} {err[:200]}{first}"
        pts = (d.get("bench") or {}).get("points") or []
        if pts:
            best = max((p.get("pct_of_peak") or 0) for p in pts)
            line += f" | {len(pts)} points, best {best:.1f}% of peak, min speedup {min(p['speedup'] for p in pts if p.get('speedup')):.2f}"
        print(line)
PY
