"""softmax: wrong on non-power-of-two sizes.

Rounds the block DOWN to a power of two and never handles the tail of the row, so the
last columns are never written (and the max/sum miss them). Passes the pow2 cases only.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, y_ptr, stride_xm, stride_xn, stride_ym, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride_ym + cols, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty))


def softmax(x):
    M, N = x.shape
    block = 1 << (N.bit_length() - 1)
    y = torch.empty_like(x, memory_format=torch.contiguous_format)
    kernel[(M,)](x, y, x.stride(0), x.stride(1), y.stride(0), BLOCK=block)
    return y
