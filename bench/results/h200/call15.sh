#!/usr/bin/env bash
# H200 call 15 (session of 2026-11-28 night; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call15.sh      (the device tool sets OUT)
# 1. bench/launch_tuning.py --what flash_attention: bench/attention_variants.py's kernel changes
#    (FMA scores, TMA descriptors, warp specialisation) x tiles, and SDPA per backend, bf16;
# 2. the 12 bad kernels calls 13 and 14 did not judge before their time limits (8 jobs, 200 s).
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $R/gpu.txt 2>&1
timeout 330 python3 bench/launch_tuning.py --what flash_attention --rep-ms 15 --budget-s 240 \
  --out $R/launch_tuning_call15.json > $R/launch_tuning_log.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
grep -E "^(SHAPE|BEST|SKIP)" $R/launch_tuning_log.txt > $R/launch_tuning_best.txt
timeout 220 python3 bench/cheats_gpu_check.py --jobs 8 --out $R/cheats_gpu_check_call15.json \
  --only topk_rows_ties_high_index,residual_rmsnorm_squares_in_fp16,fused_adamw_l2_decay,moe_gating_ties_high_id,grouped_gemm_rows_past_group,dropout_memory_offsets,dropout_rand_per_element,fp8_quant_no_scale_floor,top_p_no_renormalise,cuda_illegal_address,softmax_small_grid,softmax_side_stream \
  > $R/cheats_gpu_check_call15.txt 2>&1
echo "bad kernels rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
