"""Reference solution: vector add in Triton (the warm-up; Triton's 01-vector-add tutorial).

Each program adds one BLOCK of elements; the mask covers the last, partial block. Purely
memory-bound: read x and y, write out, 3 * n * itemsize bytes, no reuse at all, so the
best possible is the copy bandwidth of the device. Larger blocks than the tutorial's 1024
give each program more bytes in flight. The sum is taken in float32 and rounded once
(exact for fp16/bf16 operands, and Triton's CPU interpreter mishandles bf16 arithmetic).
Strides are honoured so views such as x[::2]
work without a copy (a unit stride is specialised by Triton and costs nothing).
"""

import torch
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, stride_x, stride_y, BLOCK: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets * stride_x, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offsets * stride_y, mask=mask).to(tl.float32)
    tl.store(out_ptr + offsets, (x + y).to(out_ptr.dtype.element_ty), mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x + y for 1-D tensors of one shape and dtype; returns a new contiguous tensor."""
    assert x.ndim == 1 and x.shape == y.shape and x.dtype == y.dtype
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, x.stride(0), y.stride(0),
                                         BLOCK=BLOCK, num_warps=8)
    return out


if __name__ == "__main__":
    # Quick self-check: python kernels/vector_add/solution.py (on a GPU)
    x, y = torch.randn(1 << 26, device="cuda"), torch.randn(1 << 26, device="cuda")
    torch.testing.assert_close(add(x, y), x + y)
    ms = triton.testing.do_bench(lambda: add(x, y))
    print(f"{3 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
