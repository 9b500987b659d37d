"""Int4 weight-only matmul drill: inputs, float64 reference, torch baseline, bytes/flops.

Runs in the drill child only (imports torch). A case's shape is [M, N, K]:
y[M, N] = x[M, K] @ W[K, N], W[k, n] = q[k, n] * scales[k // 128, n], where

- q are signed int4 values in [-8, 7] (two's complement nibbles; GPTQ's symmetric mode
  stores the same bits as unsigned q + 8 with zero point 8);
- w is uint8 [K // 2, N]: byte w[j, n] holds q[2j, n] in its low nibble (bits 0-3) and
  q[2j + 1, n] in its high nibble (bits 4-7): packed along K, low nibble first;
- scales is [K // 128, N] in x's dtype: one scale per group of 128 consecutive k and
  output column n. K is always a multiple of 128.

Scales are ~1/(4*sqrt(K)) so y stays O(1) (E[q^2] is 21.25 for uniform q).

Extra case key `weights` (how q is drawn): random (uniform in [-8, 7], the default) |
negative (only -8..-1: sign extension) | extremes (only -8 and 7, the two ends of the
range) | even_k_only (every odd k is 0, so every high nibble is 0: a kernel that reads the
nibbles in the wrong order puts the values on the wrong rows).

Layouts: contiguous; `transposed` (w is the .t() view of a uint8 [N, K // 2] buffer: the
nn.Linear layout, packed K contiguous); `strided_rows` (x's rows padded).
"""

import math

import torch

from studio.drills.harness.inputs import draw, dtype_of, place

GROUP = 128
WEIGHTS = ("random", "negative", "extremes", "even_k_only")


def draw_q(kind: str, K: int, N: int, gen: torch.Generator) -> torch.Tensor:
    """int64 [K, N] of int4 values in [-8, 7], drawn as `kind` says."""
    if kind == "random":
        return torch.randint(-8, 8, (K, N), generator=gen)
    if kind == "negative":
        return torch.randint(-8, 0, (K, N), generator=gen)
    if kind == "extremes":
        return torch.where(torch.rand(K, N, generator=gen) < 0.5, -8, 7).to(torch.int64)
    if kind == "even_k_only":
        q = torch.randint(-8, 8, (K, N), generator=gen)
        q[1::2] = 0
        return q
    raise ValueError(f"unknown weights {kind!r} (use one of {WEIGHTS})")


def pack(q: torch.Tensor) -> torch.Tensor:
    """int [K, N] in [-8, 7] -> uint8 [K // 2, N]; row 2j in the low nibble, 2j + 1 in the high."""
    nib = q & 0xF                               # two's complement: -1 -> 0xF, -8 -> 0x8
    return (nib[0::2] | (nib[1::2] << 4)).to(torch.uint8)


def unpack(w: torch.Tensor) -> torch.Tensor:
    """uint8 [K // 2, N] -> int64 [K, N] in [-8, 7] (sign-extended nibbles)."""
    b = w.to(torch.int64)
    nib = torch.stack((b & 0xF, b >> 4), dim=1).reshape(2 * w.shape[0], w.shape[1])
    return nib - 16 * (nib >= 8)


def make_inputs(case, gen, device):
    M, N, K = case["shape"]
    if K % GROUP:
        raise ValueError(f"K = {K} is not a multiple of the group size {GROUP}")
    dtype = dtype_of(case["dtype"])
    layout = case.get("layout", "contiguous")
    x = place(draw([M, K], case.get("fill", "randn"), gen), dtype, device,
              "strided_rows" if layout == "strided_rows" else "contiguous")
    w = pack(draw_q(case.get("weights", "random"), K, N, gen))
    if layout == "transposed":
        w = w.t().contiguous().to(device).t()
    else:
        w = w.to(device)
    scales = ((0.5 + torch.rand(K // GROUP, N, generator=gen)) / (4.0 * math.sqrt(K)))
    return x, w, scales.to(dtype).to(device)


def reference(x, w, scales):
    """x @ (q * scales per group), all in float64 from the packed bytes."""
    W = unpack(w).to(torch.float64)
    W *= scales.to(torch.float64).repeat_interleave(GROUP, dim=0)
    return x.to(torch.float64) @ W


def baseline(x, w, scales):
    """Dequantize with torch ops (unpack, sign-extend, scale each group), then torch.matmul:
    what eager PyTorch code does. It writes and re-reads a full x-dtype copy of W."""
    lo = (w & 0xF).to(torch.int8)
    hi = (w >> 4).to(torch.int8)
    q = torch.stack((lo, hi), dim=1).reshape(2 * w.shape[0], w.shape[1])
    q = q - ((q >> 3) << 4)                     # 8..15 -> -8..-1
    W = q.to(x.dtype).view(-1, GROUP, w.shape[1]) * scales[:, None, :]
    return torch.matmul(x, W.view(-1, w.shape[1]))


def output_dtype(x, w, scales):
    return x.dtype


def bytes_moved(case):
    """Read x (M*K), the packed weights (K*N/2 bytes), the scales (K/128 * N), write y (M*N)."""
    M, N, K = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (M * K + (K // GROUP) * N + M * N) * itemsize + K * N // 2


def flops(case):
    """2 * M * N * K for the product (the unpacking and scaling are not counted)."""
    M, N, K = case["shape"]
    return 2 * M * N * K
