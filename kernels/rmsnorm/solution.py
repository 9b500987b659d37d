"""Reference solution: RMSNorm forward in Triton, one pass over memory.

RMSNorm (y = x / sqrt(mean(x^2) + eps) * weight) is LayerNorm without the mean and the
bias, and just as memory-bound: read x once, write y once, read weight (bytes model:
(2 * M * N + N) * itemsize). Same structure as the layernorm drill's solution: rows of
up to MAX_FUSED_N columns stay in registers, BLOCK_M rows per program for short rows,
and a two-loop kernel for longer rows and for many rows of 2049-32768 two-byte values
(TWO_PASS: measured faster there). Its second read of a row comes from L2, so HBM still
sees x once: at 4096 x 16384 bf16 the H200 time (64.6 us) is 4.2 TB/s counting x once, and
a second read from HBM would need 6.2 TB/s, past the memory's peak. Squares are taken in
float32: an fp16 input of 300 already squares past fp16's largest value.
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
    (8192, 2): (1, 8), (8192, 4): (1, 8),
    (16384, 2): (1, 16), (16384, 4): (1, 16),
    # whole rows of 32768 in registers: 1.1-1.5x the looped kernel at 1024 x 32768 on the H200
    # (bench/long_rows_tuning.py; bench/results/long_rows_tuning.txt)
    (32768, 2): (1, 16), (32768, 4): (1, 32),
}
MIN_PROGRAMS = 128   # below this, fewer rows per program: keep every SM busy for small M


@triton.jit
def rmsnorm_rows_kernel(x_ptr, w_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym, stride_w,
                        eps, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    col_mask = cols < N
    # Rows past the end re-read the last row; only real rows are stored.
    row_offsets = tl.minimum(rows, M - 1).to(tl.int64)[:, None]
    x = tl.load(x_ptr + row_offsets * stride_xm + cols[None, :] * stride_xn,
                mask=col_mask[None, :], other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=1) / N + eps)
    w = tl.load(w_ptr + cols * stride_w, mask=col_mask, other=0.0).to(tl.float32)
    y = x * rstd[:, None] * w[None, :]
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cols[None, :],
             y.to(y_ptr.dtype.element_ty), mask=(rows < M)[:, None] & col_mask[None, :])


@triton.jit
def rmsnorm_looped_kernel(x_ptr, w_ptr, y_ptr, N: tl.constexpr, stride_xm, stride_xn, stride_ym, stride_w,
                          eps, BLOCK_N: tl.constexpr, WIDE: tl.constexpr = True):
    """Two passes over the row in BLOCK_N chunks: the sum of squares, then the output. The
    first pass marks x evict_last so the second finds it in L2 (and marks it evict_first).
    WIDE: 64-bit row offsets (only needed past 2^31 elements)."""
    row = tl.program_id(0)
    if WIDE:
        row = row.to(tl.int64)
    x_row = x_ptr + row * stride_xm
    y_row = y_ptr + row * stride_ym
    acc = tl.zeros([BLOCK_N], tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols * stride_xn, mask=cols < N, other=0.0,
                    eviction_policy="evict_last").to(tl.float32)
        acc += x * x
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_row + cols * stride_xn, mask=mask, other=0.0,
                    eviction_policy="evict_first").to(tl.float32)
        w = tl.load(w_ptr + cols * stride_w, mask=mask, other=0.0,
                    eviction_policy="evict_last").to(tl.float32)
        tl.store(y_row + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


# (BLOCK_N of the row, bytes per element) -> (chunk, num_warps): many rows (M > MIN_PROGRAMS)
# of two-byte values run the two-pass kernel instead of holding the row in registers; the
# re-read comes from L2 (a chunk at a time needs fewer registers a thread: the likely reason,
# not profiled).
# This is how torch.compile's Inductor writes the kernel (bench/inductor_code.py); on the H200
# it took 1024 x 32768 from 39.6 to 34.3 us, 4096 x 16384 from 68.9 to 64.4, 4096 x 8192 from
# 34.1 to 32.8 (bench/inductor_like.py, call 27), 16384 x 4096 from 66.1 to 64.3 (call 30;
# bench/results/launch_tuning.md).
# float32 rows of 4096 and 8192 too (call 70, bench/long_rows_tuning.py --dtypes float32; engine protocol):
# 16384 x 4096 129.6 -> 125.5 us (2048-column chunks, 16 warps), 4096 x 8192 66.1 -> 64.5 (4096, 16),
# 4096 x 4096 33.3 -> 32.7; torch.compile took 125.9 at 16384 x 4096 (call 69b).
TWO_PASS = {(4096, 2): (2048, 8), (8192, 2): (4096, 16), (16384, 2): (8192, 16), (32768, 2): (8192, 32),
            (4096, 4): (2048, 16), (8192, 4): (4096, 16)}


def launch_config(x: torch.Tensor) -> tuple[int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps) for the fused kernel, from TUNED_LAUNCH."""
    M, N = x.shape
    block_n = triton.next_power_of_2(N)
    block_m, num_warps = TUNED_LAUNCH.get((block_n, x.element_size()), (max(1, 4096 // block_n), 4))
    block_m = min(block_m, 16)
    while block_m > 1 and triton.cdiv(M, block_m) < MIN_PROGRAMS:
        block_m //= 2
        num_warps = max(4, min(num_warps, block_m * block_n // 256))
    if M <= MIN_PROGRAMS:
        # Few rows (decode: 1-128 tokens): one row per program and more warps on it, ~8
        # values a thread: 1.1-1.25x at 1-128 x 4096-16384 on the H200 (bench/long_rows_tuning.py
        # --no-looped; bench/results/small_m_tuning.txt)
        num_warps = max(num_warps, min(32, block_n // 256))
    return block_m, block_n, num_warps


def rmsnorm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """RMSNorm over the last dimension of a 2-D tensor; returns a new contiguous tensor."""
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    two_pass = TWO_PASS.get((triton.next_power_of_2(N), x.element_size())) if M > MIN_PROGRAMS else None
    if two_pass is None and (N <= 16384 or (N <= MAX_FUSED_N and x.element_size() <= 4)):
        block_m, block_n, num_warps = launch_config(x)
        rmsnorm_rows_kernel[(triton.cdiv(M, block_m),)](
            x, weight, y, M, N, x.stride(0), x.stride(1), y.stride(0), weight.stride(0), eps,
            BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
    else:
        chunk, num_warps = two_pass or (8192, 8 if x.element_size() <= 2 else 16)
        # the largest offset either pointer reaches, against int32
        wide = max(M * x.stride(0) + N * abs(x.stride(1)), M * y.stride(0)) >= 2**31
        rmsnorm_looped_kernel[(M,)](
            x, weight, y, N, x.stride(0), x.stride(1), y.stride(0), weight.stride(0), eps,
            BLOCK_N=chunk, WIDE=wide, num_warps=num_warps)
    return y


if __name__ == "__main__":
    # Quick self-check: python kernels/rmsnorm/solution.py (on a GPU)
    x = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    w = torch.randn(4096, device="cuda", dtype=x.dtype)
    expected = torch.nn.functional.rms_norm(x, (4096,), w, 1e-6)
    torch.testing.assert_close(rmsnorm(x, w, 1e-6), expected, atol=1e-2, rtol=1e-2)
    ms = triton.testing.do_bench(lambda: rmsnorm(x, w, 1e-6))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
