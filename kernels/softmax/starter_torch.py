"""Row-wise softmax in PyTorch: your solution (see the statement for the rules).

Build it from primitives (max, exp, sum, ...): calling torch.softmax or
F.softmax is flagged as calling the reference op.
Run it:  studio-drill run softmax path/to/this_file.py --lang torch
"""

import torch


def softmax(x: torch.Tensor) -> torch.Tensor:
    """Return softmax over the last dimension of x.

    x: 2-D (M, N) tensor, float32 / float16 / bfloat16, possibly non-contiguous.
    Returns a new (M, N) tensor of x's dtype on x's device. Do not modify x.
    Think about huge inputs (exp overflows) and rows containing -inf.
    """
    raise NotImplementedError("softmax: write it with torch primitives")
