"""LayerNorm forward in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run layernorm path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym, eps,
                     BLOCK_N: tl.constexpr):
    """Suggested shape: one program per row (or per few rows), the row in registers.

    mean, then the variance of the centred values (not E[x^2] - E[x]^2), then
    (x - mean) * rsqrt(var + eps) * w + b, all in float32, stored with a mask.
    """
    pass


def layernorm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    """Return LayerNorm of each row of x: (x - mean) / sqrt(var + eps) * weight + bias.

    x: 2-D (M, N) tensor, float32 / float16 / bfloat16, possibly non-contiguous.
    weight, bias: (N,) tensors of x's dtype. eps: float. var is the biased variance.
    Returns a new (M, N) tensor of x's dtype on x's device. Do not modify the inputs.
    """
    raise NotImplementedError("layernorm: allocate the output and launch your Triton kernel")
