"""Fused residual add + RMSNorm drill: inputs, float64 reference, torch baseline, bytes model.

Runs in the drill child only (imports torch). A case's shape is [M, N] of x and residual.
The drill has two outputs, h = x + residual (the new residual stream) and
y = rmsnorm(h) * weight, and the engine compares one returned tensor against one reference:
so the entry point returns them stacked, out = (2, M, N) with out[0] = h and out[1] = y, one
contiguous allocation whose two halves the kernel writes directly (no stacking copy). An
error message's index [0, i, j] points into h, [1, i, j] into y.

y is the norm of h *as stored* (rounded to the dtype), as in vLLM's fused_add_rms_norm: the
next layer's residual and this layer's norm input are the same numbers.

Case keys: `fill` (shared fills, for x and residual), `layout` (of x), `residual_layout`
(default: the same as x), `eps` (default 1e-6), `cancel` (residual = -x + 1e-3 * randn: h is
a thousand times smaller than its terms).
"""

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import draw, dtype_of, param_vector, place

DEFAULT_EPS = 1e-6


def make_inputs(case, gen, device):
    M, N = case["shape"]
    dtype = dtype_of(case["dtype"])
    fill = case.get("fill", "randn")
    layout = case.get("layout", "contiguous")
    xv = draw([M, N], fill, gen).to(dtype).float()
    if case.get("cancel"):
        rv = -xv + 1e-3 * torch.randn(M, N, generator=gen)
    else:
        rv = draw([M, N], fill, gen)
    x = place(xv, dtype, device, layout)
    residual = place(rv, dtype, device, case.get("residual_layout", layout))
    weight = param_vector(N, dtype, gen, device, center=1.0, scale=0.5)
    return x, residual, weight, float(case.get("eps", DEFAULT_EPS))


def reference(x, residual, weight, eps):
    """(2, M, N): h = x + residual exactly, y = rmsnorm(h rounded to the dtype) * weight."""
    h = x.to(torch.float64) + residual.to(torch.float64)
    stored = h.to(x.dtype).to(torch.float64)
    y = stored * torch.rsqrt(stored.pow(2).mean(dim=-1, keepdim=True) + eps) * weight.to(torch.float64)
    return torch.stack((h, y))


def baseline(x, residual, weight, eps):
    """Eager PyTorch: the add, then the norm (two kernels; h is written, then read again).
    Returns (h, y) as two tensors: stacking would add a copy that a fused kernel does not
    make, and returning y alone would let torch.compile (the baseline compiled, as the app
    and bench/peers.py time it) skip writing h, a quarter of the drill's bytes."""
    h = x + residual
    return h, F.rms_norm(h, (x.shape[-1],), weight, eps)


def output_dtype(x, residual, weight, eps):
    return x.dtype


def bytes_moved(case):
    """Read x and residual, write h and y (M * N each), read weight (N)."""
    M, N = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (4 * M * N + N) * itemsize


def flops(case):
    """Add, square-sum, scale, weight: about 5 per element."""
    M, N = case["shape"]
    return 5 * M * N
