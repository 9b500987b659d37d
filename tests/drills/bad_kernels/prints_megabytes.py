"""softmax: prints megabytes to stdout and stderr, and returns a wrong answer."""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def fill_kernel(y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offsets, tl.zeros([BLOCK], tl.float32).to(y_ptr.dtype.element_ty), mask=offsets < n)


_printed = False


def softmax(x):
    global _printed
    if not _printed:
        _printed = True
        line = "spam " * 200 + "\n"
        for _ in range(4000):           # ~4 MB
            sys.stdout.write(line)
        sys.stderr.write("E" * (2 << 20) + "\n")
    y = torch.empty((x.shape[0], x.shape[1]), dtype=x.dtype, device=x.device)
    fill_kernel[(triton.cdiv(y.numel(), 1024),)](y, y.numel(), BLOCK=1024)
    return y
