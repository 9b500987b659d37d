#!/usr/bin/env bash
# Problem packs on a GPU, against real clones the user keeps (nothing of theirs is copied here):
# every GPU MODE pmpp_v2 problem with each of the clone's own solutions/correct and
# solutions/wrong files (a correct one must pass, a wrong one fail, as the repository says),
# then timing (--bench) of the correct ones over the problem's benchmarks; LeetGPU challenges
# with their own starter.cu (must fail cleanly) and our own solutions in
# tests/drills/pack_solutions/leetgpu_real (must pass; timed too).
#
#   CLONES=/path/with/reference-kernels+leetgpu-challenges OUT=/tmp/out PYTHONPATH=. \
#     STUDIO_HOME=/tmp/sh bash bench/packs_gpu.sh
#
# $OUT/packs/<name>.json per run, $OUT/packs/summary.txt one line per run.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH="${PYTHONPATH:-.}" STUDIO_HOME="${STUDIO_HOME:-/tmp/sh}"
OUT="${OUT:-bench/out}/packs"
mkdir -p "$OUT"
python -m studio.drills.cli packs add "$CLONES/reference-kernels" --name reference-kernels
python -m studio.drills.cli packs add "$CLONES/leetgpu-challenges" --name leetgpu-challenges

one() {  # name drill file [extra...]
  local name=$1 drill=$2 file=$3; shift 3
  local start; start=$(date +%s)
  timeout 400 python -m studio.drills.cli run "$drill" "$file" --json --timeout 300 "$@" >"$OUT/$name.json" 2>"$OUT/$name.stderr"
  local code=$?
  local status; status=$(python -c 'import json,sys; d=json.load(open(sys.argv[1])); b=(d.get("bench") or {}).get("points") or []; print(d["status"], "points=%d" % len(b), " ".join("%s:%s" % (p.get("label"), "%.1fus/%.0fGBps/ref%.1fus" % (p["ms"]*1e3, p["gbps"], p["ref_ms"]*1e3) if p.get("ms") else "FAIL " + str(p.get("error"))[:120]) for p in b), (d.get("error") or {}).get("message", "")[:200] if isinstance(d.get("error"), dict) else "")' "$OUT/$name.json" 2>/dev/null || echo "no-json")
  echo "$name exit=$code $(( $(date +%s) - start ))s $status" >>"$OUT/summary.txt"
}
export -f one
export OUT

{
  for sol in "$CLONES"/reference-kernels/problems/pmpp_v2/*/solutions/*/*.py; do
    problem=$(basename "$(dirname "$(dirname "$(dirname "$sol")")")")
    kind=$(basename "$(dirname "$sol")")
    echo "gm-$problem-$kind-$(basename "${sol%.py}") reference-kernels/pmpp_v2/$problem $sol"
  done
  for c in 1_vector_add 21_relu 3_matrix_transpose; do
    echo "lg-$c-starter leetgpu-challenges/easy/$c @starter-cuda"
  done
  echo "lg-vector_add-wrong leetgpu-challenges/easy/1_vector_add tests/drills/pack_solutions/leetgpu_real/vector_add_wrong.cu"
} >"$OUT/plan.txt"
start=$(date +%s)
xargs -P "${JOBS:-8}" -L 1 bash -c 'one "$@"' _ <"$OUT/plan.txt"
echo "checks: $(( $(date +%s) - start )) s" >>"$OUT/summary.txt"

# Timing, one at a time.
for sol in "$CLONES"/reference-kernels/problems/pmpp_v2/*/solutions/correct/*.py; do
  problem=$(basename "$(dirname "$(dirname "$(dirname "$sol")")")")
  one "bench-gm-$problem-$(basename "${sol%.py}")" "reference-kernels/pmpp_v2/$problem" "$sol" --bench
done
one bench-lg-vector_add leetgpu-challenges/easy/1_vector_add tests/drills/pack_solutions/leetgpu_real/vector_add.cu --bench
one bench-lg-relu leetgpu-challenges/easy/21_relu tests/drills/pack_solutions/leetgpu_real/relu.cu --bench
one bench-lg-transpose leetgpu-challenges/easy/3_matrix_transpose tests/drills/pack_solutions/leetgpu_real/transpose.cu --bench
cat "$OUT/summary.txt"
