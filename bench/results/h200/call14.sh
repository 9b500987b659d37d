#!/usr/bin/env bash
# H200 call 14 (session of 2026-11-28 evening; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call14.sh      (the device tool sets OUT)
# After call 13: bias_gelu shrinks its tile for few rows; row_sum gives rows of 2048+ a
# program each (wide chunks and many warps when rows are few). 1. both solutions against
# every case incl. gpu_cases; 2. the 12 bad kernels call 13's cheats_gpu_check did not
# reach before its time limit; 3. peers.py for row_sum and bias_gelu on the long rows.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R;   # files straight under OUT: a run cut short still returns them
 T0=$(date +%s)
for d in bias_gelu row_sum; do
  ( timeout 90 python3 -m studio.drills.cli run $d @solution --json --timeout 85 > $R/$d.json 2> $R/$d.stderr
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
timeout 90 python3 bench/cheats_gpu_check.py --jobs 8 --out $R/cheats_gpu_check_rest.json \
  --only topk_rows_ties_high_index,residual_rmsnorm_squares_in_fp16,fused_adamw_l2_decay,moe_gating_ties_high_id,grouped_gemm_rows_past_group,dropout_memory_offsets,dropout_rand_per_element,fp8_quant_no_scale_floor,top_p_no_renormalise,cuda_illegal_address,softmax_small_grid,softmax_side_stream,gpu_skips_after_first \
  > $R/cheats_gpu_check_rest.txt 2>&1
echo "bad kernels rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 55 python3 bench/peers.py --drills row_sum,bias_gelu --sweeps long_rows --dtypes bfloat16 \
  --runs 3 --rep-ms 15 --budget-s 35 --out $R/peers_call14.md > $R/peers_log.txt 2>&1
echo "peers rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
