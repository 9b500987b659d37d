"""LayerNorm backward in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives: autograd (backward, torch.autograd.grad) and the layer_norm
ops are flagged.
Run it:  studio-drill run layernorm_backward path/to/this_file.py --lang torch
"""

import torch


def layernorm_backward(dy: torch.Tensor, x: torch.Tensor, weight: torch.Tensor,
                       mean: torch.Tensor, rstd: torch.Tensor) -> torch.Tensor:
    """Return [dx; dweight; dbias] as one new contiguous [M + 2, N] tensor of x's dtype.

    dy, x: [M, N], float32 / float16 / bfloat16, possibly non-contiguous. weight: [N].
    mean, rstd: [M] float32 from the forward. Compute in float32; do not modify the inputs.
    """
    raise NotImplementedError("layernorm_backward: write it with torch primitives")
