"""Softmax backward in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; torch._softmax_backward_data / autograd (flagged).
Run it:  studio-drill run softmax_backward path/to/this_file.py --lang torch
"""

import torch


def softmax_backward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    """Return dx = y * (dy - sum_j(y * dy)) row by row (y = softmax(x) over the last dim).

    y, dy: 2-D (M, N), one dtype (float32 / float16 / bfloat16), possibly non-contiguous.
    Returns a new (M, N) tensor of y's dtype; accumulate in float32. Do not modify inputs.
    """
    raise NotImplementedError("softmax_backward: write it with torch primitives")
