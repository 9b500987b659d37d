#!/usr/bin/env bash
# Nsight Compute on a GPU (#22): profile the softmax reference solution and a deliberately
# strided (uncoalesced) softmax at one point, print both parsed profiles, and keep them.
#
#   PYTHONPATH=. STUDIO_HOME=/tmp/sh OUT=/tmp/out bash bench/ncu_gpu.sh [SIZE] [DTYPE]
#
# SIZE defaults to 4096x1024, DTYPE to float32. Writes, under $OUT (default bench/out/ncu):
#   env.txt                      nvidia-smi, ncu --version, python/torch/triton versions
#   <name>.json / <name>.txt     `studio-drill profile ... --json` and the text view, for
#                                name = softmax_solution, softmax_strided
#   <name>.stderr                progress and any error of that profile
#   summary.txt                  the two side by side: duration, DRAM bytes against the bytes
#                                model, L2/L1 hit rate, sectors per request, bytes used per
#                                sector, verdict, warnings
# Every step runs even if an earlier one failed; each profile has its own time limit (TIMEOUT,
# default 240 s per profile, each of its two ncu runs limited to PROFILE_SIDE_S, default 110 s).
# ncu is run with --clock-control none (the Profiler always passes it).
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH="${PYTHONPATH:-.}"
export STUDIO_HOME="${STUDIO_HOME:-/tmp/sh}"
OUT="${OUT:-bench/out/ncu}"
SIZE="${1:-4096x1024}"
DTYPE="${2:-float32}"
TIMEOUT="${TIMEOUT:-240}"
SIDE_S="${PROFILE_SIDE_S:-110}"
mkdir -p "$OUT" "$STUDIO_HOME"

if [ -z "${STUDIO_NCU:-}" ] && ! command -v ncu >/dev/null 2>&1; then
  for c in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda-*/bin/ncu; do
    [ -x "$c" ] && export STUDIO_NCU="$c" && break
  done
fi
NCU="${STUDIO_NCU:-$(command -v ncu || echo ncu)}"
{
  echo "date: $(date -u +%FT%TZ)  size $SIZE  dtype $DTYPE"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1
  echo "ncu: $NCU"; "$NCU" --version 2>&1 | tail -2
  python -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)' 2>&1
} | tee "$OUT/env.txt"

profile() {  # name file
  local name=$1 file=$2 start
  start=$(date +%s)
  timeout "$TIMEOUT" python -m studio.drills.cli profile softmax "$file" --size "$SIZE" --dtype "$DTYPE" \
    --timeout "$SIDE_S" --json >"$OUT/$name.json" 2>"$OUT/$name.stderr"
  local code=$?
  echo "$name: exit $code in $(( $(date +%s) - start )) s" | tee -a "$OUT/times.txt"
  python - "$OUT/$name.json" >"$OUT/$name.txt" 2>>"$OUT/$name.stderr" <<'EOF'
import json, sys
from studio.drills.profiler import Profile, format_profile
print(format_profile(Profile.from_dict(json.load(open(sys.argv[1])))), end="")
EOF
  cat "$OUT/$name.txt"
  tail -5 "$OUT/$name.stderr"
}

profile softmax_solution @solution
profile softmax_strided bench/ncu_softmax_strided.py

python - "$OUT" <<'EOF' | tee "$OUT/summary.txt"
import json, sys
from pathlib import Path
from studio.drills.profiler import Profile, format_value
from studio.drills import ncu

out = Path(sys.argv[1])
keys = ("duration_ns", "dram_read_bytes", "dram_write_bytes", "dram_pct", "memory_pct", "sm_pct", "l2_hit_pct",
        "l1_hit_pct", "occupancy_achieved_pct", "sectors_per_request", "sector_use_pct")
cols = {}
for name in ("softmax_solution", "softmax_strided"):
    try:
        p = Profile.from_dict(json.loads((out / f"{name}.json").read_text()))
    except Exception as exc:
        print(f"{name}: no profile ({type(exc).__name__}: {exc})")
        continue
    if p.status != "ok":
        print(f"{name}: {p.status}: {p.unavailable.message() if p.unavailable else p.error}")
    k = ncu.main_kernel(p.solution.kernels)
    v = p.verdict()
    moved = None if k is None else (k.get("dram_read_bytes") or 0) + (k.get("dram_write_bytes") or 0)
    cols[name] = (p, k, v, moved)
if cols:
    print(f"{'':34}" + "".join(f"{n:>24}" for n in cols))
    for key in keys:
        info = ncu.SECTORS_PER_REQUEST if key == "sectors_per_request" else ncu.METRIC_BY_KEY[key]
        print(f"{info.label_en:34}" + "".join(f"{(format_value(key, k.get(key)) if k else '-'):>24}"
                                              for p, k, v, m in cols.values()))
    print(f"{'DRAM bytes / bytes model':34}" + "".join(
        f"{(f'{m / p.bytes_model:.2f}x' if m and p.bytes_model else '-'):>24}" for p, k, v, m in cols.values()))
    for name, (p, k, v, m) in cols.items():
        print(f"\n{name}: {k.name if k else 'no kernel'}")
        print(f"  verdict: {v.headline if v else '-'}")
        for line in (v.reasons + v.warnings) if v else []:
            print(f"  - {line}")
        b = p.verdict("baseline")
        print(f"  torch baseline: {b.headline if b else (p.baseline.error or '-')}")
EOF
echo "done; files in $OUT"
