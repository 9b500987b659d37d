"""LayerNorm backward in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run layernorm_backward path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def ln_bwd_rows_kernel(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, out_ptr, pdw_ptr, pdb_ptr,
                       M, N, stride_dym, stride_dyn, stride_xm, stride_xn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Suggested shape: a program owns a band of rows. For each row (tile of rows):
    xhat = (x - mean) * rstd, g = w * dy, the two row means of g and g * xhat, dx stored in
    out[row]; keep float32 column partials of dy * xhat and dy across the band and store
    them once in row `pid` of pdw / pdb ([programs, N] float32).
    """
    pass


@triton.jit
def ln_bwd_cols_kernel(pdw_ptr, pdb_ptr, out_ptr, M, N, P, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    """Suggested shape: one program per BLOCK_C columns sums the P partial rows and writes
    dweight into out[M] and dbias into out[M + 1]."""
    pass


def layernorm_backward(dy: torch.Tensor, x: torch.Tensor, weight: torch.Tensor,
                       mean: torch.Tensor, rstd: torch.Tensor) -> torch.Tensor:
    """Return [dx; dweight; dbias] as one new contiguous [M + 2, N] tensor of x's dtype.

    dy, x: [M, N], float32 / float16 / bfloat16, possibly strided rows or transposed views.
    weight: [N] of x's dtype. mean, rstd: [M] float32, saved by the forward
    (rstd = 1 / sqrt(var + eps)). Rows 0..M-1 of the result are dx, row M is dweight,
    row M+1 is dbias. Compute in float32; do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("layernorm_backward: allocate the output and launch your Triton kernels")
