"""Row sum in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run row_sum path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, s_ptr, M, N, stride_xm, stride_xn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Suggested shape: BLOCK_M rows per program, loop over the columns in BLOCK_N chunks,
    keep a float32 accumulator per lane, tl.sum once at the end.
    """
    pass


def row_sum(x: torch.Tensor) -> torch.Tensor:
    """Return s with s[i] = sum_j x[i, j].

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly non-contiguous (use its strides).
    Returns a new (M,) tensor of x's dtype; accumulate in float32. Do not modify x.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("row_sum: allocate the output and launch your Triton kernel")
