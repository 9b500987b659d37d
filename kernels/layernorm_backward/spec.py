"""LayerNorm-backward drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). The inputs are what a training step hands
the backward pass: dy and x [M, N] of the case's dtype and layout, the weight [N] of that
dtype, and the forward's saved statistics mean and rstd [M] in float32 (computed here in
float64 from x with eps, then rounded, as torch's native_layer_norm saves them). The
reference takes the given mean and rstd as they are, so solution and reference start
from the same numbers.

Three results, one tensor (a drill returns one tensor; kernels/README.md): the answer is
[M + 2, N] of x's dtype, rows 0..M-1 dx, row M dweight, row M+1 dbias.
"""

import torch

from studio.drills.harness.inputs import draw, dtype_of, param_vector, place

DEFAULT_EPS = 1e-5


def make_inputs(case, gen, device):
    M, N = case["shape"]
    dtype, layout = dtype_of(case["dtype"]), case.get("layout", "contiguous")
    x = draw([M, N], case.get("fill", "randn"), gen).to(dtype)
    dy = torch.randn(M, N, generator=gen).to(dtype)
    weight = param_vector(N, dtype, gen, device, center=1.0, scale=0.5)
    x64 = x.to(torch.float64)
    mean = x64.mean(dim=1)
    var = ((x64 - mean[:, None]) ** 2).mean(dim=1)
    rstd = torch.rsqrt(var + float(case.get("eps", DEFAULT_EPS)))
    return (place(dy, dtype, device, layout), place(x, dtype, device, layout), weight,
            mean.float().to(device), rstd.float().to(device))


def reference(dy, x, weight, mean, rstd):
    """xhat = (x - mean) * rstd, g = weight * dy;
    dx = rstd * (g - mean_j(g) - xhat * mean_j(g * xhat)), dweight = sum_i dy * xhat,
    dbias = sum_i dy; in float64, stacked as [dx; dweight; dbias]."""
    d = torch.float64
    dy64, x64, w64 = dy.to(d), x.to(d), weight.to(d)
    xhat = (x64 - mean.to(d)[:, None]) * rstd.to(d)[:, None]
    g = w64[None, :] * dy64
    c1 = (g * xhat).mean(dim=1, keepdim=True)
    c2 = g.mean(dim=1, keepdim=True)
    dx = (g - c2 - xhat * c1) * rstd.to(d)[:, None]
    return torch.cat([dx, (dy64 * xhat).sum(dim=0)[None, :], dy64.sum(dim=0)[None, :]])


def baseline(dy, x, weight, mean, rstd):
    """ATen's fused LayerNorm backward (what autograd runs), all three gradients."""
    return torch.ops.aten.native_layer_norm_backward(
        dy, x, [x.shape[1]], mean[:, None], rstd[:, None], weight, weight, [True, True, True])


def output_dtype(dy, x, weight, mean, rstd):
    return x.dtype


def bytes_moved(case):
    """Read dy and x, write dx (3*M*N elements), read the weight and write dweight and
    dbias (3*N), read mean and rstd (2*M float32)."""
    M, N = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (3 * M * N + 3 * N) * itemsize + 2 * M * 4


def flops(case):
    """xhat, g, the two row sums, dx, and the two column sums: about 11 per element."""
    M, N = case["shape"]
    return 11 * M * N
