"""SwiGLU drill: inputs, float64 reference, torch baseline, bytes and flops models.

Runs in the drill child only (imports torch). A case's shape is [M, H] of the output; the
input gu is (M, 2H), the output of a fused gate-up projection: columns 0..H-1 are the gate
g, columns H..2H-1 the up projection u, and y = silu(g) * u = g * sigmoid(g) * u.

Values come from the shared generators (`fill`, drawn for all of gu). The extra key
`gate_scale` (default 1.0) multiplies the gate columns after drawing, so gates of both
signs land deep in both sigmoid tails (|g| past 88, where float32 exp overflows).

Layouts: contiguous; `strided_rows` (gu's row stride is 2H + 3); `transposed` (gu is a
.t() view of a contiguous (2H, M) buffer, so consecutive columns are M elements apart).
"""

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import draw, dtype_of, place


def make_inputs(case, gen, device):
    M, H = case["shape"]
    values = draw([M, 2 * H], case.get("fill", "randn"), gen)
    scale = float(case.get("gate_scale", 1.0))
    if scale != 1.0:
        values[:, :H] *= scale
    gu = place(values, dtype_of(case["dtype"]), device, case.get("layout", "contiguous"))
    return (gu,)


def reference(gu):
    """y = g * sigmoid(g) * u in float64 (in place where it can: the bench sizes are large)."""
    H = gu.shape[1] // 2
    g = gu[:, :H].to(torch.float64)
    y = torch.sigmoid(g).mul_(g)
    del g
    return y.mul_(gu[:, H:])


def baseline(gu):
    """The usual eager code (HF Llama's MLP): split views, F.silu, multiply. Unfused, it
    writes silu(g) to memory and reads it back."""
    g, u = gu.chunk(2, dim=-1)
    return F.silu(g) * u


def output_dtype(gu):
    return gu.dtype


def bytes_moved(case):
    """Read gu (M * 2H) and write y (M * H): 3 * M * H * itemsize."""
    M, H = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return 3 * M * H * itemsize


def flops(case):
    """Counted as 5 per output: negate, exp, add, divide (or reciprocal and multiply), multiply by u."""
    M, H = case["shape"]
    return 5 * M * H
