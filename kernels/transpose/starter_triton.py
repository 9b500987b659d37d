"""Matrix transpose in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run transpose path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Suggested shape: a 2-D grid of BLOCK_M x BLOCK_N tiles; load a tile with coalesced
    row reads, transpose it in registers (tl.trans), store it as rows of y. Mask both.
    """
    pass


def transpose(x: torch.Tensor) -> torch.Tensor:
    """Return x.T as a new contiguous (N, M) tensor.

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly non-contiguous (use its strides).
    The copy must be bit-exact. Do not modify x.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("transpose: allocate the output and launch your Triton kernel")
