#!/usr/bin/env bash
# H200 call 16 (session of 2026-11-28 night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call16.sh      (the device tool sets OUT)
# After call 15: flash_attention's mask-free loop takes the row max over raw scores (one FMA
# per score before exp2) and skips 128-row tiles on 4 warps at head_dim >= 128.
# 1. the solution against every case incl. gpu_cases; 2. peers.py on its bench sweep (bf16,
# three protocols); 3. the bad kernels whose expectations changed after call 15
# (softmax_side_stream now with --bench; moe_gating fixture rebuilt from the solution) and
# topk_rows_ties_high_index, which no call has reached yet.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 150 python3 -m studio.drills.cli run flash_attention @solution --json --timeout 140 \
  > $R/flash_attention.json 2> $R/flash_attention.stderr
echo "solution rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
python3 - $R/flash_attention.json > $R/summary.txt <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print("flash_attention", d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), bad[:1], d.get("error"))
PY
timeout 200 python3 bench/peers.py --drills flash_attention --dtypes bfloat16 \
  --runs 3 --rep-ms 20 --budget-s 170 --out $R/peers_call16.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 150 python3 bench/cheats_gpu_check.py --jobs 5 --out $R/cheats_gpu_check_call16.json \
  --only topk_rows_ties_high_index,softmax_side_stream,moe_gating_ties_high_id,grouped_gemm_rows_past_group,fp8_quant_no_scale_floor \
  > $R/cheats_gpu_check_call16.txt 2>&1
echo "bad kernels rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
