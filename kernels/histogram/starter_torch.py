"""Histogram in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives (a scatter-add of ones, or a one-hot comparison summed per
bin); torch.histc / histogram / bincount / bucketize / searchsorted / unique are flagged.
Run it:  studio-drill run histogram path/to/this_file.py --lang torch
"""

import torch


def histogram(x: torch.Tensor, bins: int) -> torch.Tensor:
    """Return counts (bins,) int32: counts[b] = number of elements of x in bin b.

    x: 1-D, float32 / float16 / bfloat16, possibly strided; values mostly in [0, 1).
    Bin of v: floor(float32(v) * bins) with the product rounded to float32, clamped to
    [0, bins - 1] (v < 0 counts in bin 0, v >= 1 in bin bins - 1).
    Returns a new int32 tensor on x's device. Do not modify x.
    """
    raise NotImplementedError("histogram: write it with torch primitives")
