"""Softmax-backward drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). y is a real softmax output (the softmax of
the case's x, so huge / -inf / equal-row fills give peaked, zero-holding and uniform y),
dy is random; both share the case's dtype and layout.
"""

import torch

from studio.drills.harness.inputs import draw, dtype_of, place


def make_inputs(case, gen, device):
    shape = list(case["shape"])
    x = draw(shape, case.get("fill", "randn"), gen)
    y = torch.softmax(x.to(torch.float64), dim=-1).float()
    dy = torch.randn(shape, generator=gen)
    dtype, layout = dtype_of(case["dtype"]), case.get("layout", "contiguous")
    return place(y, dtype, device, layout), place(dy, dtype, device, layout)


def reference(y, dy):
    """dx = y * (dy - sum_j y_j dy_j), in float64 from the given y and dy."""
    y64, dy64 = y.to(torch.float64), dy.to(torch.float64)
    return y64 * (dy64 - (y64 * dy64).sum(dim=-1, keepdim=True))


def baseline(y, dy):
    return torch._softmax_backward_data(dy, y, -1, y.dtype)


def bytes_moved(case):
    """Read y and dy, write dx: 3 * M * N * itemsize."""
    rows, cols = case["shape"]
    return 3 * rows * cols * torch.empty((), dtype=dtype_of(case["dtype"])).element_size()


def flops(case):
    """y*dy, the row sum, the subtract, the multiply: 4 per element."""
    rows, cols = case["shape"]
    return 4 * rows * cols
