"""layernorm: loses everything on values far from zero.

var = E[x^2] - E[x]^2 in float32: for x around 1000 the two terms are ~1e6 and their
difference (~1) drowns in rounding error.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    var = tl.sum(x * x, axis=0) / N - mean * mean
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
    y = (x - mean) * tl.rsqrt(var + eps) * w + b
    tl.store(y_ptr + row * stride_ym + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    kernel[(M,)](x, weight, bias, y, N, x.stride(0), x.stride(1), y.stride(0), eps,
                 BLOCK=triton.next_power_of_2(N))
    return y
