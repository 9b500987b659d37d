"""Fused bias + GELU in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; F.gelu (flagged).
Run it:  studio-drill run bias_gelu path/to/this_file.py --lang torch
"""

import torch


def bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """Return gelu(x + bias), exact erf form: 0.5 * z * (1 + erf(z / sqrt(2))), z = x + bias.

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly non-contiguous; bias: (N,), x's dtype.
    Returns a new (M, N) tensor of x's dtype; compute in float32. Do not modify the inputs.
    """
    raise NotImplementedError("bias_gelu: write it with torch primitives")
