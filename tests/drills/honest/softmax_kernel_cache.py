"""softmax, honest: keeps one specialised kernel per dtype in a dict, float64 arithmetic."""
import torch
import triton
import triton.language as tl

_kernels = {}


def _make(dtype):
    @triton.jit
    def kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=-float("inf")).to(tl.float32).to(tl.float64)
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * stride_y + cols, (e / tl.sum(e, axis=0)).to(tl.float32).to(y_ptr.dtype.element_ty),
                 mask=cols < N)
    return kernel


def softmax(x):
    x = x.contiguous()
    kernel = _kernels.setdefault(x.dtype, _make(x.dtype))
    y = torch.empty_like(x)
    kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0),
                          BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
