"""Matrix transpose in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; x.t().contiguous(), .clone(), .permute() (flagged in a Triton solution).
Run it:  studio-drill run transpose path/to/this_file.py --lang torch
"""

import torch


def transpose(x: torch.Tensor) -> torch.Tensor:
    """Return x.T as a new contiguous (N, M) tensor.

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly non-contiguous (use its strides).
    The copy must be bit-exact. Do not modify x.
    """
    raise NotImplementedError("transpose: write it with torch primitives")
