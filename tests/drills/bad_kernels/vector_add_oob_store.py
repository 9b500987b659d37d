"""vector_add: writes out of bounds.

Masks the loads but not the store, so the last block writes past the end of the output.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, y_ptr, out_ptr, n, stride_x, stride_y, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets * stride_x, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets * stride_y, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offsets, (x + y).to(out_ptr.dtype.element_ty))


def add(x, y):
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    kernel[(triton.cdiv(n, 1024),)](x, y, out, n, x.stride(0), y.stride(0), BLOCK=1024)
    return out
