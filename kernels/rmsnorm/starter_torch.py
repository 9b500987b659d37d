"""RMSNorm forward in PyTorch: your solution (see the statement for the rules).

Build it from primitives: calling F.rms_norm is flagged as calling the reference op.
Run it:  studio-drill run rmsnorm path/to/this_file.py --lang torch
"""

import torch


def rmsnorm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """Return RMSNorm of each row of x: x / sqrt(mean(x^2) + eps) * weight.

    x: 2-D (M, N) tensor, float32 / float16 / bfloat16, possibly non-contiguous.
    weight: (N,) tensor of x's dtype. eps: float.
    Returns a new (M, N) tensor of x's dtype. Do not modify the inputs.
    """
    raise NotImplementedError("rmsnorm: write it with torch primitives")
