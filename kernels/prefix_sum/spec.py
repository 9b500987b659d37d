"""Prefix-sum drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). x comes from the shared generators (huge
values, large offsets, equal rows, strided rows, transposed views); the answer is the
inclusive scan y[i, j] = sum_{k <= j} x[i, k] in x's dtype.
"""

import torch

from studio.drills.harness.inputs import case_tensor, dtype_of


def make_inputs(case, gen, device):
    return (case_tensor(case, gen, device),)


def reference(x):
    return x.to(torch.float64).cumsum(dim=1)


def baseline(x):
    return torch.cumsum(x, dim=1)


def bytes_moved(case):
    """Read x (M*N), write y (M*N): 2 * M * N * itemsize."""
    rows, cols = case["shape"]
    return 2 * rows * cols * torch.empty((), dtype=dtype_of(case["dtype"])).element_size()


def flops(case):
    """One add per element (a work-efficient scan does about two; count the essential one)."""
    rows, cols = case["shape"]
    return rows * cols
