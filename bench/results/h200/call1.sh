#!/usr/bin/env bash
# H200 call 1 (2026-11-28, device kind nvidia-h200), from the repository root:
#   OUT=/tmp/o bash bench/results/h200/call1.sh     (the device tool sets OUT)
# 1. the four drills never yet run on a GPU (dropout, fp8_quant, top_p_sampling, fused_adamw):
#    reference solution with --bench (all cases incl. gpu_cases, then the sweep), one at a time;
# 2. every other kernel drill's Triton reference solution checked (no timing), 4 at a time;
# 3. the CUDA reference solutions checked (built with torch.utils.cpp_extension), 4 at a time;
# 4. what the machine has for SSH (for the SSH target's GPU run).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/check $R/bench $R/cuda $STUDIO_HOME
T0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c 'import torch,triton;print("torch",torch.__version__,"triton",triton.__version__)'
  nvcc --version | tail -1; head -2 /etc/os-release; id
  echo "ssh tools: $(command -v sshd ssh ssh-keygen | tr '\n' ' ')"
  for b in .sshcarry/real/*; do echo "ldd $b (carried libs):"; LD_LIBRARY_PATH=$PWD/.sshcarry/lib ldd $b | grep -i "not found"; echo "ldd $b (system libs only):"; ldd $b | grep -i "not found"; done
} > $R/env.txt 2>&1
one() { # dir drill file [args]
  local dir=$1 d=$2 f=$3; shift 3; local s=$(date +%s)
  timeout 280 python3 -m studio.drills.cli run $d $f --json --timeout 260 "$@" > $R/$dir/$d.json 2>$R/$dir/$d.stderr
  echo "$dir $d rc=$? $(( $(date +%s)-s ))s" >> $R/log.txt
}
export -f one; export R
for d in dropout fp8_quant top_p_sampling fused_adamw; do one bench $d @solution --bench; done
echo "bench done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
printf '%s\n' bias_gelu causal_conv1d cross_entropy embedding_backward flash_attention grouped_gemm histogram \
  int4_wo_matmul int8_wo_matmul layernorm layernorm_backward matmul moe_gating paged_attention_decode prefix_sum \
  residual_rmsnorm rmsnorm rope row_sum softmax softmax_backward swiglu topk_rows transpose vector_add \
  | xargs -P4 -I{} bash -c 'one check {} @solution'
echo "check done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
printf '%s\n' layernorm matmul rmsnorm row_sum softmax transpose vector_add | xargs -P4 -I{} bash -c 'one cuda {} @solution-cuda'
echo "cuda done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - $R > $R/summary.txt 2>&1 <<'PY'
import json, sys, pathlib
root = pathlib.Path(sys.argv[1])
for sub in ("bench", "check", "cuda"):
    for f in sorted((root / sub).glob("*.json")):
        try:
            d = json.loads(f.read_text())
        except Exception as exc:
            print(sub, f.stem, "NO JSON", type(exc).__name__, (root / sub / (f.stem + ".stderr")).read_text()[-300:].replace("\n", " | "))
            continue
        cases = d.get("cases") or []
        bad = [c.get("name") for c in cases if not c.get("passed")]
        pts = (d.get("bench") or {}).get("points") or []
        err = d.get("error") or {}
        line = f"{sub} {f.stem} {d.get('status')} cases {len(cases)-len(bad)}/{len(cases)} {d.get('device','')}"
        if bad: line += f" FAILED {bad[:6]}"
        if err: line += f" error {str(err.get('message', err))[:300]}"
        print(line)
        for p in pts:
            print("   ", p.get("label"), p.get("dtype", ""), "passed" if p.get("passed") else "NOT", 
                  "ms %.4f ref %.4f" % (p.get("ms") or 0, p.get("ref_ms") or 0),
                  "GB/s %.0f" % (p.get("gbps") or 0), "pct %s" % (p.get("pct_of_peak")), "x%.2f" % ((p.get("ref_ms") or 0) / (p.get("ms") or 1)),
                  "INVALID %s" % p.get("invalid") if p.get("invalid") else "", (p.get("note") or "")[:80], str(p.get("error") or "")[:150])
PY
cd $OUT && tar czf h200_call1.tgz r && rm -rf r
