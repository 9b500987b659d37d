"""Reference solution: y = x.T (contiguous) in Triton, tiled.

Transpose is pure data movement (bytes model: read M*N, write M*N elements, 0 flops), so
the only goal is to run both sides at full memory bandwidth. A naive kernel reads rows
and writes columns: one side of it is coalesced, the other is a strided scatter that
touches a 32-byte sector per element. The tiled kernel loads a BLOCK_M x BLOCK_N tile
with coalesced row reads, transposes it in registers (`tl.trans`: Triton stages the
layout change through shared memory, the classic smem-tile transpose) and stores it as
BLOCK_N coalesced rows of y. Both sides now move whole sectors.

64x64 tiles (8 KiB in fp16, 16 KiB in fp32) give each program enough bytes in flight; a
2-D grid over tiles keeps the index math trivial. Two-byte tiles run on 4 warps, float32 on 8
(64 bytes of the tile a thread either way): on the H200 (bench/launch_tuning.py --what transpose, call 88,
23 launches a point) float32 1024 x 1024 took 6.3 us against 6.7 on 4 warps, 4096 x 4096 34.0
against 34.8, each within 0.3 us of the fastest; two-byte tiles on 4 or 8 warps were level.
Non-contiguous x just means other strides: a transposed view of a contiguous matrix
turns the loads into the strided side, and Triton still emits a coalesced store.
"""

import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows.to(tl.int64)[:, None] * stride_xm + cols[None, :] * stride_xn,
                   mask=mask)
    # y[c, r] = x[r, c]: store the transposed tile, rows of y are columns of x.
    tl.store(y_ptr + cols.to(tl.int64)[:, None] * stride_ym + rows[None, :],
             tl.trans(tile), mask=tl.trans(mask))


def transpose(x: torch.Tensor) -> torch.Tensor:
    """Return x.T as a new contiguous (N, M) tensor; x is 2-D (M, N), any strides."""
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    y = torch.empty((N, M), dtype=x.dtype, device=x.device)
    block = 32 if INTERPRET else 64
    grid = (triton.cdiv(M, block), triton.cdiv(N, block))
    transpose_kernel[grid](x, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                           BLOCK_M=block, BLOCK_N=block, num_warps=8 if x.element_size() >= 4 else 4)
    return y


if __name__ == "__main__":
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(transpose(x), x.t().contiguous(), atol=0, rtol=0)
    ms = triton.testing.do_bench(lambda: transpose(x))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
