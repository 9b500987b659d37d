"""Int4 weight-only matmul in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run int4_wo_matmul path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl

GROUP = 128   # scales: one per 128 consecutive k and output column


@triton.jit
def int4_wo_matmul_kernel(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K,
                          stride_xm, stride_xk, stride_wk, stride_wn, stride_sg, stride_sn,
                          stride_ym, stride_yn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Suggested shape: a matmul tile loop with BLOCK_K dividing 128 (one scale row per
    tile). Load the packed [BLOCK_K // 2, BLOCK_N] bytes, split the low nibbles (even k) from
    the high ones (odd k), sign-extend, convert to x's dtype in registers, then either
    interleave them back into k order or run one tl.dot per nibble against x's even / odd
    columns. Multiply the group's fp32 partial sums by its scales and add them up.
    """
    pass


def int4_wo_matmul(x: torch.Tensor, w: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """Return y = x @ W with W[k, n] = q[k, n] * scales[k // 128, n].

    x: [M, K] float16 / bfloat16 (float32 also checked), possibly strided rows; K % 128 == 0.
    w: uint8 [K // 2, N], any strides (often the .t() view of an [N, K // 2] buffer); byte
       w[j, n] holds q[2j, n] in bits 0-3 and q[2j + 1, n] in bits 4-7, each a signed
       (two's complement) int4 in [-8, 7].
    scales: [K // 128, N], x's dtype. Returns a new [M, N] tensor of x's dtype.
    Dequantize inside the kernel; accumulate in float32. Do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("int4_wo_matmul: allocate the output and launch your Triton kernel")
