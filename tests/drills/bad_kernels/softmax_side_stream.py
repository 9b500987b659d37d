"""softmax (GPU only): launches on a side stream that waits for its inputs but is never
joined back to the caller's (#21).

A plausible attempt at overlap: the side stream waits on the caller's stream, so the
inputs are ready, but the caller's stream never waits on the side stream, so the timed
region's end event is recorded before the kernel has run. Correct once the device is
synchronised; timed like that it read 91 TB/s on the H100. The judge's escape probe must
mark every timing invalid (flag invalid_timing) under each protocol, and no figure of it
may become a personal best. Under the interpreter there are no streams: CI skips it.
"""
import torch
import triton
import triton.language as tl

_side = None


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * stride_x + offs, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride_y + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    global _side
    rows, cols = x.shape
    x = x if x.stride(1) == 1 else x.contiguous()
    y = torch.empty((rows, cols), dtype=x.dtype, device=x.device)
    launch = lambda: softmax_kernel[(rows,)](x, y, cols, x.stride(0), y.stride(0),  # noqa: E731
                                             BLOCK=triton.next_power_of_2(cols))
    if not x.is_cuda:
        launch()
        return y
    if _side is None:
        _side = torch.cuda.Stream()
    _side.wait_stream(torch.cuda.current_stream())     # inputs ready on the side stream...
    with torch.cuda.stream(_side):
        launch()
    return y                                           # ...but nobody waits for the side stream
