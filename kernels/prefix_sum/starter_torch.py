"""Prefix sum (row-wise inclusive scan) in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; torch.cumsum / cumprod / logcumsumexp are flagged (a
log-step scan of shifted adds, or a product with a triangular matrix, is the exercise).
Run it:  studio-drill run prefix_sum path/to/this_file.py --lang torch
"""

import torch


def prefix_sum(x: torch.Tensor) -> torch.Tensor:
    """Return y with y[i, j] = x[i, 0] + x[i, 1] + ... + x[i, j] (inclusive scan of each row).

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly non-contiguous.
    Returns a new (M, N) tensor of x's dtype; accumulate in float32. Do not modify x.
    """
    raise NotImplementedError("prefix_sum: write it with torch primitives")
