"""SwiGLU in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run swiglu path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(gu_ptr, y_ptr, M, H, stride_m, stride_n, stride_ym,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Suggested shape: 2-D tiles of the (M, H) output. The gate of output (i, j) sits at
    gu[i, j] and its up value at gu[i, j + H]: two loads from the same base pointer.
    Compute in float32, store rounded to y's dtype, mask both axes.
    """
    pass


def swiglu(gu: torch.Tensor) -> torch.Tensor:
    """Return y = silu(g) * u = g * sigmoid(g) * u, where g = gu[:, :H] and u = gu[:, H:].

    gu: 2-D (M, 2H), float32 / float16 / bfloat16, possibly strided rows or a transposed
    view (use both strides). Returns a new contiguous (M, H) tensor of gu's dtype; compute
    in float32. Do not modify gu.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("swiglu: allocate the output and launch your Triton kernel")
