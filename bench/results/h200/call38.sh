#!/usr/bin/env bash
# H200 call 38 (session of 2026-11-28, night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call38.sh      (the device tool sets OUT)
# After the judge changes of calls 36-37 (the provenance check follows TMA descriptors to their
# tensors; the matmul peak is torch's best of 4096^3 and 8192^3): 1. the honest softmax fixture that
# writes its output through a TMA descriptor, on real TMA hardware; 2. every single-GPU drill's
# Triton reference solution checked (all cases incl. gpu_cases, no timing), 6 at a time, with flags.
# What happened (166 s): the fixture and all 30 solutions passed every case with no flag
# (summary_call38.txt, log_call38.txt).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh38 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R/check; T0=$(date +%s)
one() { # drill file
  local d=$1 f=$2 s=$(date +%s) name=$1; [ "$f" != "@solution" ] && name="$1-$(basename $f .py)"
  timeout 280 python3 -m studio.drills.cli run $d $f --json --timeout 260 > $R/check/$name.json 2>$R/check/$name.stderr
  echo "check $name rc=$? $(( $(date +%s)-s ))s" >> $R/log.txt
}
export -f one; export R
one softmax tests/drills/honest/softmax_tensor_descriptor.py
printf '%s\n' paged_attention_decode flash_attention grouped_gemm int4_wo_matmul int8_wo_matmul flash_decoding \
  bias_gelu causal_conv1d cross_entropy dropout embedding_backward fp8_quant fused_adamw histogram layernorm \
  layernorm_backward matmul moe_gating prefix_sum residual_rmsnorm rmsnorm rope row_sum softmax softmax_backward \
  swiglu top_p_sampling topk_rows transpose vector_add | xargs -P6 -I{} bash -c 'one {} @solution'
echo "check done at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - $R > $OUT/summary.txt 2>&1 <<'PY'
import json, sys, pathlib
root = pathlib.Path(sys.argv[1])
for f in sorted((root / "check").glob("*.json")):
    try:
        d = json.loads(f.read_text())
    except Exception as exc:
        print(f.stem, "NO JSON", type(exc).__name__, (root / "check" / (f.stem + ".stderr")).read_text()[-300:].replace("\n", " | "))
        continue
    cases = d.get("cases") or []
    bad = [c.get("name") for c in cases if not c.get("passed")]
    err = d.get("error") or {}
    line = f"{f.stem} {d.get('status')} cases {len(cases)-len(bad)}/{len(cases)} flags {d.get('flags')} {d.get('device','')}"
    if bad: line += f" FAILED {bad[:6]}"
    if err: line += f" error {str(err.get('message', err))[:300]}"
    print(line)
PY
cp $R/log.txt $OUT/log.txt; cd $OUT && tar czf h200_call38.tgz r && rm -rf r
