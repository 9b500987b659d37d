"""SwiGLU in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives: F.silu, torch.sigmoid and F.glu are flagged.
Run it:  studio-drill run swiglu path/to/this_file.py --lang torch
"""

import torch


def swiglu(gu: torch.Tensor) -> torch.Tensor:
    """Return y = silu(g) * u = g * sigmoid(g) * u, where g = gu[:, :H] and u = gu[:, H:].

    gu: 2-D (M, 2H), float32 / float16 / bfloat16, possibly non-contiguous.
    Returns a new contiguous (M, H) tensor of gu's dtype; compute in float32. Do not modify gu.
    """
    raise NotImplementedError("swiglu: write it with torch primitives")
