"""causal_conv1d's vectorised kernel (#21, call 90) against its shifted-load kernel, bit for bit.

The drill's cases reach the vectorised kernel for K of 2 to 4 only (the statement's contract);
it takes K up to VEC_MAX_K = 5. Both kernels run here under Triton's interpreter on small
inputs: K from 1 to 5, SiLU on and off, float32 and bf16, rows shorter than a group of four,
lengths that do not divide into the tile, several tiles along D and L, and padded rows. The
child process is needed because Triton reads TRITON_INTERPRET once per process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

CHILD = r'''
import importlib.util, itertools, sys
import torch, triton
spec = importlib.util.spec_from_file_location("cc_vec", sys.argv[1])
sol = importlib.util.module_from_spec(spec); spec.loader.exec_module(sol)

def run(kernel, x, w, b, act, bd, bl, vec):
    B, D, L = x.shape
    y = torch.empty((B, D, L), dtype=x.dtype)
    grid = (triton.cdiv(L, bl), triton.cdiv(D, bd), B)
    strides = (x.stride(0), x.stride(1)) + (() if vec else (x.stride(2),)) + (w.stride(0), w.stride(1), b.stride(0))
    kernel[grid](x, w, b, y, D, L, *strides, K=w.shape[1], ACTIVATION=act, BLOCK_D=bd, BLOCK_L=bl)
    return y

g = torch.Generator().manual_seed(0)
checked = 0
for (B, D, L), K, dtype, padded in itertools.product(
        [(2, 5, 37), (1, 3, 3), (1, 4, 130)], range(1, 6), (torch.float32, torch.bfloat16), (False, True)):
    act = (K + padded) % 2 == 0          # SiLU on and off across the K and layouts
    base = torch.randn(B, D, L + (3 if padded else 0), generator=g).to(dtype)
    x = base[:, :, :L]
    w = (torch.randn(D, K, generator=g) * 0.5).to(dtype)
    b = torch.randn(D, generator=g).to(dtype)
    want = run(sol.causal_conv1d_kernel, x, w, b, act, 4, 32, vec=False)
    for bd, bl in ((2, 16), (4, 64)):
        got = run(sol.causal_conv1d_vec_kernel, x, w, b, act, bd, bl, vec=True)
        assert torch.equal(got, want), ((B, D, L), K, act, dtype, padded, bd, bl)
        checked += 1
assert sol.VEC_MAX_K == 5 and sol.use_vec(torch.empty(1, 2, 8), 5) and not sol.use_vec(torch.empty(1, 2, 8), 6)
print("checked", checked)
'''


def test_vector_kernel_equals_the_shifted_load_kernel_for_k_up_to_5():
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(REPO / "kernels" / "causal_conv1d" / "solution.py")],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "checked 120", proc.stdout
