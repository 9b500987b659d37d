"""rmsnorm: overflows on large values.

Squares in the input dtype: an fp16 value of 1000 squares to inf, so rstd is 0.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, w_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0)
    squares = (x * x).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(squares, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    tl.store(y_ptr + row * stride_ym + cols, (x.to(tl.float32) * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rmsnorm(x, weight, eps):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    kernel[(M,)](x, weight, y, N, x.stride(0), x.stride(1), y.stride(0), eps,
                 BLOCK=triton.next_power_of_2(N))
    return y
