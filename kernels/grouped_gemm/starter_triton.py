"""Grouped GEMM in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run grouped_gemm path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def grouped_gemm_kernel(x_ptr, w_ptr, y_ptr, off_ptr, E, N, K,
                        stride_xm, stride_xk, stride_we, stride_wk, stride_wn, stride_ym,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Suggested shape: a fixed grid; program p walks the list of all experts' output tiles
    (expert e has cdiv(offsets[e+1] - offsets[e], BLOCK_M) * cdiv(N, BLOCK_N) of them) taking
    every num_programs-th one; for each, the matmul loop over K with tl.dot into float32,
    rows masked to the expert's end."""
    pass


def grouped_gemm(x: torch.Tensor, w: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """Return y [M, N] with y[offsets[e]:offsets[e+1]] = x[offsets[e]:offsets[e+1]] @ w[e].

    x: [M, K] float16 / bfloat16 (float32 also checked), rows possibly strided.
    w: [E, K, N] of x's dtype, any strides (a transposed view of [E, N, K] too).
    offsets: [E + 1] int32 on the device, offsets[0] = 0, offsets[E] = M; experts may be empty.
    Accumulate in float32; return a new contiguous tensor of x's dtype. Do not modify inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("grouped_gemm: allocate the output and launch your Triton kernel")
