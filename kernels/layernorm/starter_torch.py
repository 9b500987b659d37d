"""LayerNorm forward in PyTorch: your solution (see the statement for the rules).

Build it from primitives (mean, sum, rsqrt, ...): calling F.layer_norm is flagged as
calling the reference op.
Run it:  studio-drill run layernorm path/to/this_file.py --lang torch
"""

import torch


def layernorm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    """Return LayerNorm of each row of x: (x - mean) / sqrt(var + eps) * weight + bias.

    x: 2-D (M, N) tensor, float32 / float16 / bfloat16, possibly non-contiguous.
    weight, bias: (N,) tensors of x's dtype. eps: float. var is the biased variance.
    Returns a new (M, N) tensor of x's dtype. Do not modify the inputs.
    """
    raise NotImplementedError("layernorm: write it with torch primitives")
