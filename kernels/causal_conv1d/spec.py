"""Causal conv1d drill: inputs, float64 reference, torch baseline, bytes and flops models.

Runs in the drill child only (imports torch). A case's shape is [B, D, L] of x (batch,
channels, sequence). weight is (D, K) and bias (D,), both of x's dtype, K = the case's `k`
(default 4). `activation` (default true) applies SiLU to the result:

    out[b, d, t] = bias[d] + sum_{k=0}^{K-1} weight[d, k] * x[b, d, t - (K-1) + k]

with x taken as 0 at negative times (causal left padding).

Layouts: contiguous; `strided_rows` (each (b, d) row padded to L + 3); `channels_last`
(a contiguous (B, L, D) buffer viewed as (B, D, L)); `xz_slice` (the first D channels of a
(B, L, 2D) buffer viewed as (B, D, L): how Mamba's in_proj output reaches the conv).
"""

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import draw, dtype_of, param_vector

LAYOUTS = ("contiguous", "strided_rows", "channels_last", "xz_slice")


def case_k(case):
    return int(case.get("k", 4))


def make_inputs(case, gen, device):
    B, D, L = case["shape"]
    K = case_k(case)
    dtype = dtype_of(case["dtype"])
    layout = case.get("layout", "contiguous")
    values = draw([B, D, L], case.get("fill", "randn"), gen)
    if layout == "contiguous":
        x = values.to(dtype).to(device)
    elif layout == "strided_rows":
        base = torch.zeros(B, D, L + 3, dtype=dtype, device=device)
        base[:, :, :L] = values.to(dtype).to(device)
        x = base[:, :, :L]
    elif layout == "channels_last":
        x = values.transpose(1, 2).contiguous().to(dtype).to(device).transpose(1, 2)
    elif layout == "xz_slice":
        xz = torch.randn(B, L, 2 * D, generator=gen)
        xz[:, :, :D] = values.transpose(1, 2)
        x = xz.to(dtype).to(device)[:, :, :D].transpose(1, 2)
    else:
        raise ValueError(f"unknown layout {layout!r} (use one of {LAYOUTS})")
    weight = param_vector(D * K, dtype, gen, device, scale=0.5).view(D, K)
    bias = param_vector(D, dtype, gen, device, scale=0.5)
    return x, weight, bias, bool(case.get("activation", True))


def reference(x, weight, bias, activation):
    """The causal window sum in float64, one shifted multiply-add per tap (in place: the
    bench sizes are large), then x * sigmoid(x) if activation."""
    B, D, L = x.shape
    K = weight.shape[1]
    xd = x.to(torch.float64)
    w = weight.to(torch.float64)
    out = bias.to(torch.float64)[None, :, None].expand(B, D, L).contiguous()
    for k in range(K):
        shift = K - 1 - k              # tap k reads x[t - shift]
        if shift < L:
            out[:, :, shift:].addcmul_(xd[:, :, :L - shift], w[:, k, None])
    if activation:
        out.mul_(torch.sigmoid(out))
    return out


def baseline(x, weight, bias, activation):
    """What Mamba does without its CUDA kernel: a grouped conv1d padded by K - 1 on both
    sides, cut to the first L outputs, then F.silu."""
    D, K = weight.shape
    out = F.conv1d(x, weight.unsqueeze(1), bias, padding=K - 1, groups=D)[..., :x.shape[-1]]
    return F.silu(out) if activation else out


def output_dtype(x, weight, bias, activation):
    return x.dtype


def bytes_moved(case):
    """Read x (B*D*L), weight (D*K) and bias (D), write out (B*D*L), all of x's itemsize."""
    B, D, L = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (2 * B * D * L + D * case_k(case) + D) * itemsize


def flops(case):
    """2K per output for the window (a multiply and an add per tap), 4 more for SiLU."""
    B, D, L = case["shape"]
    per_output = 2 * case_k(case) + (4 if case.get("activation", True) else 0)
    return per_output * B * D * L
