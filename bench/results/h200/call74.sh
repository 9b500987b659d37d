#!/usr/bin/env bash
# H200 call 74 (session of 2026-11-29, fourth; kind nvidia-h200):
#   OUT=/tmp/o bash bench/results/h200/call74.sh      (the device tool sets OUT)
# 1. bench/lnb_kernels_apart.py: the dweight / dbias kernel with more loads in flight (tl.range software pipelining,
# STAGES; the row loop unrolled, UNROLL), 17 launches (call 73: 60.5-60.8 us against Inductor's 54.4-57.7);
# 2. layernorm float32 now takes its two-pass kernel (2048-column chunks, 16 warps) for rows of 4096 from 8192 rows
# and rows of 8192 from 2048 rows (call 73): bench/inductor_like.py at 8192 x 4096, 16384 x 4096, 1024 / 2048 / 4096 x
# 8192 ("solution as is" beside the fused kernel's old launch is not timed here: see call 73) to set those minimums;
# 3. the layernorm drill's cases on the GPU.
# What happened (98 s): the dwdb kernel's row loop unrolled 4 times 55.8-56.2 us; whole 135.8 bf16 (torch.compile 137.3),
# 136.3 fp16 (134.2); STAGES 3-4 58.2-58.6. layernorm float32: two-pass 19.9 us at 1024 x 8192 (fused 21.3), 65.0 at
# 8192 x 4096 (torch.compile 65.2); layernorm 22/22 cases on the GPU.
set -u
export PYTHONPATH=. STUDIO_HOME=/tmp/sh74 PYTHONUNBUFFERED=1
R=$OUT; mkdir -p $R; T0=$(date +%s)
step() { echo "$1 rc=$2 at $(( $(date +%s)-T0 ))s" >> $R/log.txt; }
timeout 200 python3 bench/lnb_kernels_apart.py --shapes 4096x12288 --dtypes bfloat16,float16 --iters 30 --rep-ms 10 \
  --out $R/lnb_apart_call74.json > $R/lnb_apart_call74.txt 2>&1; step lnb_apart $?
timeout 200 python3 bench/inductor_like.py --what layernorm --dtype float32 \
  --shapes 8192x4096,16384x4096,1024x8192,2048x8192,4096x8192 --rep-ms 10 --out $R/ln_fp32_call74.json \
  > $R/ln_fp32_call74.txt 2>&1; step ln_fp32 $?
timeout 90 python3 -m studio.drills.cli run layernorm @solution --json --timeout 85 > /tmp/ln.json 2> /tmp/ln.err; step ln_run $?
python3 - /tmp/ln.json >> $R/log.txt <<'PY'
import json, sys
try:
    d = json.loads(open(sys.argv[1]).read())
except Exception as exc:
    print(sys.argv[1], "no JSON:", exc); sys.exit()
cases = d.get("cases") or []; bad = [c for c in cases if not c.get("passed")]
print(d["drill"], d["status"], "cases %d/%d" % (len(cases) - len(bad), len(cases)), d.get("device"), "%.0fs" % d["duration_s"])
for f in d.get("flags") or []:
    print("  FLAG", f, d.get("flag_details", {}).get(f))
for c in bad:
    print("  FAILED", c.get("name"), c.get("phase"), (c.get("error") or "")[:200])
if d.get("error"):
    print("  ERROR", str(d["error"])[:300])
PY
tail -3 /tmp/ln.err >> $R/log.txt
step done 0
