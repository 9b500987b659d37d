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

MAX_FUSED_N = 32768   # rows up to this many columns stay in registers (for dtypes of <= 4 bytes)
# (BLOCK_N, bytes per element) -> (BLOCK_M, num_warps): the fastest launch shape across the
# softmax, layernorm and rmsnorm kernels at M=4096 on an H100 (bench/drills_gpu_check.py
# --explore; bench/results/drills_gpu_tuning.md). Short rows want several rows per program
# (8-16 KiB each); long rows want more warps, ~16-32 values per thread.
TUNED_LAUNCH = {
    (256, 2): (16, 16), (256, 4): (16, 16),
    # rows of 512 two-byte values: two rows on one warp, 16 values a thread (8-14% faster than
    # 16 rows on 16 warps at 16384 x 512 on the H200; bench/results/launch_tuning.md)
    (512, 2): (2, 1), (512, 4): (4, 4),
    (1024, 2): (2, 4), (1024, 4): (4, 4),
    (2048, 2): (2, 4), (2048, 4): (2, 4),
    (4096, 2): (1, 4), (4096, 4): (1, 8),
    # rows of 8192 two-byte values on 16 warps: 16384 x 8192 129.8 -> 127.8 us on the H200, where
    # Liger-Kernel's one-row kernel (16 warps) had led by 1% (bench/inductor_like.py, call 30)
    (8192, 2): (1, 16), (8192, 4): (1, 8),
    (16384, 2): (1, 16), (16384, 4): (1, 16),
    # whole rows of 32768 in registers: 1.1-1.5x the looped kernel at 1024 x 32768 on the H200
    # (bench/long_rows_tuning.py; bench/results/long_rows_tuning.txt)
    (32768, 2): (1, 16), (32768, 4): (1, 16),
}
MIN_PROGRAMS = 128   # below this, fewer rows per program: keep every SM busy for small M


@triton.jit
def softmax_rows_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    col_mask = (cols < N)[None, :]
    # Rows past the end re-read the last row (no -inf - -inf); only real rows are stored.
    row_offsets = tl.minimum(rows, M - 1).to(tl.int64)[:, None]
    x = tl.load(x_ptr + row_offsets * stride_xm + cols[None, :] * stride_xn, mask=col_mask,
                other=-float("inf")).to(tl.float32)
    numerator = tl.exp(x - tl.max(x, axis=1)[:, None])
    y = numerator * (1.0 / tl.sum(numerator, axis=1))[:, None]
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cols[None, :],
             y.to(y_ptr.dtype.element_ty), mask=(rows < M)[:, None] & col_mask)


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


def launch_config(x: torch.Tensor) -> tuple[int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps) for the fused kernel, from TUNED_LAUNCH."""
    M, N = x.shape
    block_n = triton.next_power_of_2(N)
    block_m, num_warps = TUNED_LAUNCH.get((block_n, x.element_size()), (max(1, 4096 // block_n), 4))
    block_m = min(block_m, 16)
    while block_m > 1 and triton.cdiv(M, block_m) < MIN_PROGRAMS:
        block_m //= 2
        num_warps = max(4, min(num_warps, block_m * block_n // 256))
    return block_m, block_n, num_warps


def softmax(x: torch.Tensor) -> torch.Tensor:
    """softmax(x) over the last dimension of a 2-D tensor; returns a new contiguous tensor."""
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    if N <= 16384 or (N <= MAX_FUSED_N and x.element_size() <= 4):
        block_m, block_n, num_warps = launch_config(x)
        softmax_rows_kernel[(triton.cdiv(M, block_m),)](
            x, y, M, N, x.stride(0), x.stride(1), y.stride(0),
            BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
    else:
        softmax_looped_kernel[(M,)](x, y, N, x.stride(0), x.stride(1), y.stride(0),
                                    BLOCK_N=8192, num_warps=16)
    return y


if __name__ == "__main__":
    # Quick self-check: python kernels/softmax/solution.py (on a GPU)
    x = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(softmax(x), torch.softmax(x, dim=-1))
    ms = triton.testing.do_bench(lambda: softmax(x))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
