"""RMSNorm forward in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run rmsnorm path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym, eps,
                   BLOCK_N: tl.constexpr):
    """Suggested shape: one program per row (or per few rows), the row in registers.

    Sum of squares in float32, rstd = rsqrt(sum / N + eps), y = x * rstd * w, masked store.
    """
    pass


def rmsnorm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """Return RMSNorm of each row of x: x / sqrt(mean(x^2) + eps) * weight.

    x: 2-D (M, N) tensor, float32 / float16 / bfloat16, possibly non-contiguous.
    weight: (N,) tensor of x's dtype. eps: float.
    Returns a new (M, N) tensor of x's dtype on x's device. Do not modify the inputs.
    """
    raise NotImplementedError("rmsnorm: allocate the output and launch your Triton kernel")
