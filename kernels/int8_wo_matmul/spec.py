"""Int8 weight-only matmul drill: inputs, float64 reference, torch baseline, bytes/flops.

Runs in the drill child only (imports torch). A case's shape is [M, N, K]:
y[M, N] = x[M, K] @ (W[K, N] * scale[N]) with x in the case's dtype, W int8 in
[-128, 127], and per-output-channel scales in x's dtype (fp16 for fp16 activations).
Scales are ~1/(64*sqrt(K)) so y stays O(1).

Layouts: contiguous; `transposed` (W is the .t() view of an int8 [N, K] matrix: the
nn.Linear weight layout, K contiguous); `strided_rows` (x's rows padded).
"""

import math

import torch

from studio.drills.harness.inputs import dtype_of, place


def make_inputs(case, gen, device):
    M, N, K = case["shape"]
    dtype = dtype_of(case["dtype"])
    layout = case.get("layout", "contiguous")
    x = place(torch.randn(M, K, generator=gen), dtype, device,
              "strided_rows" if layout == "strided_rows" else "contiguous")
    w = torch.randint(-128, 128, (K, N), generator=gen, dtype=torch.int8)
    if layout == "transposed":
        w = w.t().contiguous().to(device).t()
    else:
        w = w.to(device)
    scale = ((0.5 + torch.rand(N, generator=gen)) / (64.0 * math.sqrt(K))).to(dtype).to(device)
    return x, w, scale


def reference(x, w, scale):
    return x.to(torch.float64) @ (w.to(torch.float64) * scale.to(torch.float64)[None, :])


def baseline(x, w, scale):
    """Dequantize, then torch.matmul: what eager PyTorch code does."""
    return torch.matmul(x, w.to(x.dtype) * scale)


def output_dtype(x, w, scale):
    return x.dtype


def bytes_moved(case):
    """Read x (M*K), the int8 weights (K*N bytes), the scales (N), write y (M*N)."""
    M, N, K = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (M * K + N + M * N) * itemsize + K * N


def flops(case):
    """2 * M * N * K for the product (the dequantization is not counted)."""
    M, N, K = case["shape"]
    return 2 * M * N * K
