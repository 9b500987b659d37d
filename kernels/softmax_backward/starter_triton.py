"""Softmax backward in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run softmax_backward path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_bwd_kernel(y_ptr, dy_ptr, dx_ptr, M, N, stride_ym, stride_yn,
                       stride_dym, stride_dyn, stride_dxm, BLOCK_N: tl.constexpr):
    """Suggested shape: one program per row (or a few rows) with the row in registers:
    one dot product, then the elementwise formula. Mask loads with 0.
    """
    pass


def softmax_backward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    """Return dx = y * (dy - sum_j(y * dy)) row by row (y = softmax(x) over the last dim).

    y, dy: 2-D (M, N), one dtype (float32 / float16 / bfloat16), possibly non-contiguous.
    Returns a new (M, N) tensor of y's dtype; accumulate in float32. Do not modify inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("softmax_backward: allocate the output and launch your Triton kernel")
