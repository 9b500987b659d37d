"""Transpose drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). A case's shape is [M, N]: x is (M, N) and
the answer is the contiguous (N, M) matrix x.T. Layouts come from the shared generators
(strided rows, transposed views).
"""

import torch

from studio.drills.harness.inputs import case_tensor, dtype_of


def make_inputs(case, gen, device):
    return (case_tensor(case, gen, device),)


def reference(x):
    return x.to(torch.float64).t()


def baseline(x):
    return x.t().contiguous()


def bytes_moved(case):
    """Read x once, write x.T once: 2 * M * N * itemsize."""
    rows, cols = case["shape"]
    return 2 * rows * cols * torch.empty((), dtype=dtype_of(case["dtype"])).element_size()


def flops(case):
    """No arithmetic at all: a pure data-movement kernel."""
    return 0
