"""Row-sum drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). x comes from the shared generators (huge
values, equal rows, strided rows, transposed views); the answer is s[i] = sum_j x[i, j]
in x's dtype.
"""

import torch

from studio.drills.harness.inputs import case_tensor, dtype_of


def make_inputs(case, gen, device):
    return (case_tensor(case, gen, device),)


def reference(x):
    return x.to(torch.float64).sum(dim=1)


def baseline(x):
    return x.sum(dim=1)


def bytes_moved(case):
    """Read x (M*N), write s (M): (M*N + M) * itemsize."""
    rows, cols = case["shape"]
    return (rows * cols + rows) * torch.empty((), dtype=dtype_of(case["dtype"])).element_size()


def flops(case):
    """One add per element."""
    rows, cols = case["shape"]
    return rows * cols
