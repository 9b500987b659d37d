"""Softmax drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). Every case's x comes from the shared
generators, so fills (huge values, -inf entries, equal rows) and layouts (strided rows,
transposed views) mean the same thing in every row-wise drill.
"""

import torch

from studio.drills.harness.inputs import case_tensor


def make_inputs(case, gen, device):
    return (case_tensor(case, gen, device),)


def reference(x):
    """Softmax over the last dimension, computed in float64."""
    return torch.softmax(x.to(torch.float64), dim=-1)


def baseline(x):
    """What the solution is timed against."""
    return torch.softmax(x, dim=-1)


def bytes_moved(case):
    """Read x once, write y once: the floor for any softmax."""
    rows, cols = case["shape"]
    itemsize = torch.empty((), dtype=getattr(torch, case["dtype"])).element_size()
    return 2 * rows * cols * itemsize


def flops(case):
    """max, subtract, exp, sum, scale: about 5 per element (tiny: this is memory-bound)."""
    rows, cols = case["shape"]
    return 5 * rows * cols
