"""Vector-add drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). x and y share the case's shape, dtype and
layout but hold different random values.
"""

import torch

from studio.drills.harness.inputs import case_tensor, dtype_of


def make_inputs(case, gen, device):
    return case_tensor(case, gen, device), case_tensor(case, gen, device)


def reference(x, y):
    return x.to(torch.float64) + y.to(torch.float64)


def baseline(x, y):
    return torch.add(x, y)


def bytes_moved(case):
    """Read x and y, write the sum: 3 * n * itemsize."""
    (n,) = case["shape"]
    return 3 * n * torch.empty((), dtype=dtype_of(case["dtype"])).element_size()


def flops(case):
    (n,) = case["shape"]
    return n
