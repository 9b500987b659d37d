"""Bias + GELU drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). x comes from the shared generators; bias is
a random (N,) vector of x's dtype (never zeros, which would hide a missing add). The GELU
is the exact erf form, F.gelu's default.
"""

import math

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import case_tensor, dtype_of, param_vector


def make_inputs(case, gen, device):
    x = case_tensor(case, gen, device)
    bias = param_vector(case["shape"][-1], dtype_of(case["dtype"]), gen, device, scale=0.5)
    return x, bias


def reference(x, bias):
    """gelu(z) = 0.5 * z * (1 + erf(z / sqrt(2))), z = x + bias, in float64."""
    z = x.to(torch.float64) + bias.to(torch.float64)
    return 0.5 * z * (1.0 + torch.erf(z / math.sqrt(2.0)))


def baseline(x, bias):
    return F.gelu(x + bias)


def bytes_moved(case):
    """Read x and write y (M*N each), read bias (N): (2*M*N + N) * itemsize."""
    rows, cols = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (2 * rows * cols + cols) * itemsize


def flops(case):
    """Counted as 8 per element: add, scale, erf (as one), add, two multiplies, ... ."""
    rows, cols = case["shape"]
    return 8 * rows * cols
