"""Dropout with Triton's Philox RNG: your solution (see the statement for the rules).

Run it:  studio-drill run dropout path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def dropout_kernel(x_ptr, y_ptr, M, N, stride_m, stride_n, p, scale, seed,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Suggested shape: tiles of the (M, N) input. Element (i, j) has the int32 index
    e = i * N + j and draws r = tl.rand4x(seed, e // 4)[e % 4] (one Philox call serves the
    four elements 4c .. 4c + 3; the mask is defined by it). Keep it when r >= p and store
    x * scale (scale = 1 / (1 - p)) or 0. Mask both axes.
    """
    pass


def dropout(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    """Return y (M, N): y[i, j] = x[i, j] / (1 - p) if r >= p, else 0, where
    r = tl.rand4x(seed, e // 4)[e % 4] for e = i * N + j (int32): see the statement.

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly strided rows or a transposed view.
    0 <= p < 1 (a float32 value); 0 <= seed < 2^63. M * N < 2^31. Returns a new contiguous
    tensor of x's dtype. Do not modify x.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("dropout: allocate the output and launch your Triton kernel")
