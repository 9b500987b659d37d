"""Causal depthwise conv1d (+ SiLU) in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives (shifted slices, F.pad, unfold...): F.conv1d and the other
convolution ops, F.silu and torch.sigmoid are flagged.
Run it:  studio-drill run causal_conv1d path/to/this_file.py --lang torch
"""

import torch


def causal_conv1d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                  activation: bool) -> torch.Tensor:
    """Return out[b, d, t] = bias[d] + sum_k weight[d, k] * x[b, d, t - (K-1) + k] (x = 0 at
    negative times), then silu(out) = out * sigmoid(out) if activation.

    x: (B, D, L), float32 / float16 / bfloat16, possibly non-contiguous. weight: (D, K),
    K in {2, 3, 4}; bias: (D,); both of x's dtype.
    Returns a new contiguous (B, D, L) tensor of x's dtype; compute in float32. Do not
    modify the inputs.
    """
    raise NotImplementedError("causal_conv1d: write it with torch primitives")
