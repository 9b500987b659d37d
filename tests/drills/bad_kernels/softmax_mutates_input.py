"""softmax: mutates its input.

Computes in place (writes the result over x) and returns x: right values, wrong contract.
"""
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, N, stride_xm, stride_xn, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    ptrs = x_ptr + row * stride_xm + cols * stride_xn
    x = tl.load(ptrs, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(ptrs, (e / tl.sum(e, axis=0)).to(x_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    M, N = x.shape
    kernel[(M,)](x, N, x.stride(0), x.stride(1), BLOCK=triton.next_power_of_2(N))
    return x
