"""Row sum in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; torch.sum / .mean / matmul with ones (flagged in a Triton solution).
Run it:  studio-drill run row_sum path/to/this_file.py --lang torch
"""

import torch


def row_sum(x: torch.Tensor) -> torch.Tensor:
    """Return s with s[i] = sum_j x[i, j].

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly non-contiguous (use its strides).
    Returns a new (M,) tensor of x's dtype; accumulate in float32. Do not modify x.
    """
    raise NotImplementedError("row_sum: write it with torch primitives")
