#!/usr/bin/env bash
# H200 call 48 (session of 2026-11-29; kind nvidia-h200; no carry):
#   OUT=/tmp/o bash bench/results/h200/call48.sh      (the device tool sets OUT)
# Call 47: the one-partition Gluon kernel (intra-warpgroup overlap only) timed like the Triton one
# (1116 against 1127 us at 4 x 16 x 4096 x 128; cuDNN 814): both warp groups meet at a CTA barrier
# before every TMA issue, so their softmaxes still coincide. Here the warp-specialised kernel
# (attn_fwd_hopper_ws_kernel): a loader warp, two consumer warp groups that take turns on the tensor
# cores (ping-pong through two mbarriers), setmaxnreg 240/240/24. 1. its output against SDPA on
# ragged, causal, packed and long shapes (in its own process, 90 s limit: a deadlock costs only that);
# 2. launch_tuning against the one-partition kernel and cuDNN.
# What happened (72 s): ws_check_call48.txt 8 of 8 OK. launch_tuning_call48.json, engine us: head_dim 128
# 841 (torch 826) and causal 474 (torch 482); head_dim 64 1265 (torch 1133) and causal 700 (632), where the
# one-partition 64 x 64 tile on 4 warps gave 1262 and 677.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
timeout 90 python3 - > $R/ws_check.txt 2>&1 <<'PY'
import importlib.util, torch, torch.nn.functional as F
spec = importlib.util.spec_from_file_location("sol", "kernels/flash_attention/solution.py")
sol = importlib.util.module_from_spec(spec); spec.loader.exec_module(sol)
torch.manual_seed(0)
for B, H, S, D, causal, dt, packed, tile in [
        (1, 2, 37, 64, False, torch.float16, False, (128, 128, 2)), (2, 1, 45, 64, True, torch.float16, False, (128, 128, 2)),
        (2, 4, 1024, 64, False, torch.float16, False, (128, 128, 3)), (2, 4, 1000, 128, True, torch.bfloat16, False, (128, 128, 2)),
        (1, 4, 4096, 128, True, torch.float16, False, (128, 128, 2)), (2, 16, 2047, 64, True, torch.float16, True, (128, 64, 4)),
        (2, 3, 777, 128, False, torch.bfloat16, True, (128, 128, 2)), (1, 2, 300, 64, True, torch.bfloat16, False, (128, 64, 4))]:
    if packed:
        buf = torch.randn(B, S, 3, H, D, device="cuda", dtype=dt)
        q, k, v = (buf[:, :, i].transpose(1, 2) for i in range(3))
    else:
        q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=dt) for _ in range(3))
    want = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
    got = sol.attention_hopper(q, k, v, causal, *tile, 0, ws=True)
    torch.cuda.synchronize()
    err = (got.float() - want).abs().max().item()
    print(B, H, S, D, causal, dt, "packed" if packed else "", tile, "max err %.2e" % err, "OK" if err < 3e-2 else "WRONG", flush=True)
PY
echo "ws check rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
timeout 240 python3 bench/launch_tuning.py --what flash_attention \
  --variants "gluon-ws,gluon bm=128 bn=128 st=2 w=8,gluon bm=64 bn=64 st=4 w=4,sdpa cudnn" \
  --shapes 4x16x4096x128,4x16x4096x128x1,4x32x4096x64,4x32x4096x64x1 --rep-ms 15 \
  --out $R/launch_tuning_call48.json > $R/fa_tuning_log.txt 2>&1
echo "tuning rc=$? at $(( $(date +%s)-T0 ))s" >> $R/log.txt
