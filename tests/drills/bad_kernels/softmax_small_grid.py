"""softmax: correct below 2^20 elements only (#21): the grid is sized for at most 2^20.

One program per row, but the launch caps the programs at 2^20 // BLOCK, as if no input
were ever larger: rows past the cap are never written. Every small case passes; the
interpreter's large case ([65, 16411]: 32 programs of 32768 columns for 65 rows) fails.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * stride_x + offs, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride_y + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    x = x if x.stride(1) == 1 else x.contiguous()
    y = torch.empty((rows, cols), dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(cols)
    programs = min(rows, (1 << 20) // block)      # the bug: 2^20 elements "is plenty"
    softmax_kernel[(programs,)](x, y, cols, x.stride(0), y.stride(0), BLOCK=block)
    return y
