"""Dropout with Triton's Philox RNG: your solution (see the statement for the rules).

Run it:  studio-drill run dropout path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def dropout_kernel(x_ptr, y_ptr, M, N, stride_m, stride_n, p, scale, seed,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Suggested shape: 2-D tiles of the (M, N) input. For element (i, j) draw
    r = tl.rand(seed, i * N + j) with an int32 offset (the mask is defined by it), keep it
    when r >= p, and store x * scale (scale = 1 / (1 - p)) or 0. Mask both axes.
    """
    pass


def dropout(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    """Return y (M, N): y[i, j] = x[i, j] / (1 - p) if tl.rand(seed, i * N + j) >= p, else 0.

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly strided rows or a transposed view.
    0 <= p < 1 (a float32 value); 0 <= seed < 2^63. M * N < 2^31. Returns a new contiguous
    tensor of x's dtype. Do not modify x.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("dropout: allocate the output and launch your Triton kernel")
