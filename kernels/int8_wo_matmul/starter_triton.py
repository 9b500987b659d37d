"""Int8 weight-only matmul in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run int8_wo_matmul path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def int8_wo_matmul_kernel(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K,
                          stride_xm, stride_xk, stride_wk, stride_wn, stride_ym, stride_yn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Suggested shape: a matmul tile loop; convert the int8 tile of w to x's dtype in
    registers before tl.dot, and apply the per-column scale once, in the epilogue.
    """
    pass


def int8_wo_matmul(x: torch.Tensor, w: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """Return y = x @ (w * scale): y[m, n] = sum_k x[m, k] * w[k, n] * scale[n].

    x: [M, K] float16 / bfloat16 (float32 also checked), possibly strided rows;
    w: int8 [K, N], any strides (often the .t() view of an [N, K] weight);
    scale: [N], x's dtype (per output channel). Returns a new [M, N] tensor of x's dtype.
    Dequantize inside the kernel; accumulate in float32. Do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("int8_wo_matmul: allocate the output and launch your Triton kernel")
