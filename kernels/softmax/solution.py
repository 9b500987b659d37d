"""Reference solution: row-wise softmax in Triton, one pass over memory.

Read like Triton's 02-fused-softmax tutorial. Softmax is memory-bound: it must read x
once and write y once (bytes model: 2 * M * N * itemsize), and the arithmetic (a max,
an exp, a sum per element) is free next to that. So the fast kernel keeps whole rows in
registers: one load, three reductions in registers, one store.

- Rows up to MAX_FUSED_N columns: `softmax_rows_kernel`. A program handles BLOCK_M rows
  at once, so short rows still give each program a few KiB to move (many tiny programs
  would leave the memory system idle between launches of work).
- Longer rows: `softmax_looped_kernel` streams each row twice (an online max/sum pass,
  then the write pass), because a whole row no longer fits in registers.

Subtracting the row max before exp keeps huge inputs from overflowing; masked lanes load
-inf, which exp turns into 0. Strides are honoured, so strided and transposed views work
without a copy; Triton specialises a unit column stride, so contiguous rows get wide loads.
"""

import torch
import triton
import triton.language as tl

MAX_FUSED_N = 16384


@triton.jit
def softmax_rows_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, NUM_STAGES: tl.constexpr):
    cols = tl.arange(0, BLOCK_N)
    col_mask = (cols < N)[None, :]
    # Each program walks over blocks of BLOCK_M rows; with fewer programs than blocks the
    # loop is software-pipelined (NUM_STAGES): the next block's load is in flight while
    # this one is reduced.
    for block in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.num_programs(0),
                          num_stages=NUM_STAGES):
        rows = block * BLOCK_M + tl.arange(0, BLOCK_M)
        # Rows past the end re-read the last row (no -inf - -inf); only real rows are stored.
        row_offsets = tl.minimum(rows, M - 1).to(tl.int64)[:, None]
        x = tl.load(x_ptr + row_offsets * stride_xm + cols[None, :] * stride_xn, mask=col_mask,
                    other=-float("inf"), eviction_policy="evict_first").to(tl.float32)
        numerator = tl.exp(x - tl.max(x, axis=1)[:, None])
        y = numerator * (1.0 / tl.sum(numerator, axis=1))[:, None]
        tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cols[None, :],
                 y.to(y_ptr.dtype.element_ty), mask=(rows < M)[:, None] & col_mask,
                 eviction_policy="evict_first")


@triton.jit
def softmax_looped_kernel(x_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym,
                          BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_xm
    y_row = y_ptr + row * stride_ym
    # Pass 1: per-lane running max and sum of exp(x - max), rescaled as the max grows.
    lane_max = tl.full([BLOCK_N], -float("inf"), tl.float32)
    lane_sum = tl.zeros([BLOCK_N], tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols * stride_xn, mask=cols < N, other=-float("inf")).to(tl.float32)
        new_max = tl.maximum(lane_max, x)
        seen = new_max > -float("inf")
        lane_sum = tl.where(seen, lane_sum * tl.exp(lane_max - new_max) + tl.exp(x - new_max), 0.0)
        lane_max = new_max
    row_max = tl.max(lane_max, axis=0)
    inv_sum = 1.0 / tl.sum(lane_sum * tl.exp(lane_max - row_max), axis=0)
    # Pass 2: normalise and write.
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols * stride_xn, mask=cols < N, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - row_max) * inv_sum
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=cols < N)


def launch_config(x: torch.Tensor) -> tuple[int, int, int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps, programs, NUM_STAGES) for softmax_rows_kernel."""
    M, N = x.shape
    block_n = triton.next_power_of_2(N)
    block_m = max(1, 2048 // block_n)
    num_warps = min(16, max(4, block_m * block_n // 512))
    return block_m, block_n, num_warps, triton.cdiv(M, block_m), 1


def softmax(x: torch.Tensor) -> torch.Tensor:
    """softmax(x) over the last dimension of a 2-D tensor; returns a new contiguous tensor."""
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    if N <= MAX_FUSED_N:
        block_m, block_n, num_warps, programs, stages = launch_config(x)
        softmax_rows_kernel[(programs,)](x, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                                         BLOCK_M=block_m, BLOCK_N=block_n, NUM_STAGES=stages,
                                         num_warps=num_warps)
    else:
        softmax_looped_kernel[(M,)](x, y, N, x.stride(0), x.stride(1), y.stride(0),
                                    BLOCK_N=4096, num_warps=8)
    return y


if __name__ == "__main__":
    # Quick self-check: python kernels/softmax/solution.py (on a GPU)
    x = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(softmax(x), torch.softmax(x, dim=-1))
    ms = triton.testing.do_bench(lambda: softmax(x))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
