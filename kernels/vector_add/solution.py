"""Reference solution: vector add in Triton (the warm-up; Triton's 01-vector-add tutorial).

Each program adds one BLOCK of elements; the mask covers the last, partial block. Purely
memory-bound: read x and y, write out, 3 * n * itemsize bytes, no reuse at all, so the
best possible is the copy bandwidth of the device. Each thread moves two 16-byte vectors of
each operand (`LAUNCH`: 4096 two-byte or 1024 float32 elements a program); small inputs then
still spread over several SMs. The sum is taken in float32 and rounded once
(exact for fp16/bf16 operands, and Triton's CPU interpreter mishandles bf16 arithmetic).
Strides are honoured so views such as x[::2]
work without a copy (a unit stride is specialised by Triton and costs nothing).
"""

import torch
import triton
import triton.language as tl

BLOCK = 4096
# Element size -> (BLOCK, num_warps). Float32 takes 1024 elements on 4 warps (8 a thread: two
# 16-byte vectors per operand): on the H200 (bench/launch_tuning.py --what vector_add, call 86,
# engine protocol) 5.1 -> 4.3 us at 4096 elements (4 programs, not 1), 5.5 -> 4.6 at 65536,
# 7.5 -> 7.3 at 2^20 and 48.6 -> 47.2 at 2^24, each within 0.1 us of the fastest of 18 launches.
# Two-byte elements keep 4096 on 8 warps (16 a thread, the same two vectors).
LAUNCH = {2: (4096, 8), 4: (1024, 4)}


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
    block, warps = LAUNCH.get(x.element_size(), (BLOCK, 8))
    add_kernel[(triton.cdiv(n, block),)](x, y, out, n, x.stride(0), y.stride(0),
                                         BLOCK=block, num_warps=warps)
    return out


if __name__ == "__main__":
    # Quick self-check: python kernels/vector_add/solution.py (on a GPU)
    x, y = torch.randn(1 << 26, device="cuda"), torch.randn(1 << 26, device="cuda")
    torch.testing.assert_close(add(x, y), x + y)
    ms = triton.testing.do_bench(lambda: add(x, y))
    print(f"{3 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
