"""Reference solution: LayerNorm forward in Triton, one pass over memory.

Read like Triton's 05-layer-norm tutorial, minus the backward pass. LayerNorm is
memory-bound: read x once, write y once, plus weight and bias (bytes model:
(2 * M * N + 2 * N) * itemsize). The tutorial's forward kernel loops over a row three
times (mean, variance, output); here a row of up to MAX_FUSED_N columns stays in
registers, so x is read exactly once, and the variance is computed from the centred
values (two-pass in registers), never as E[x^2] - E[x]^2, which cancels catastrophically
for data far from zero.

- Rows up to MAX_FUSED_N: `layernorm_rows_kernel`, BLOCK_M rows per program so that
  short rows still give each program a few KiB to move. With few rows (decode) the time is
  one chain of memory round trips, so weight and bias are requested together with x
  (WB_FIRST); with many rows they are loaded after the reductions, out of the registers'
  way.
- Many rows of 8193-16384 two-byte values, or of 4096-8192 float32 values:
  `layernorm_two_pass_kernel` (TWO_PASS), two reads of the row with Welford's update, the
  second read from L2: measured faster there than holding the row in registers.
- Longer rows: `layernorm_looped_kernel`, the tutorial's three loops (the re-reads of a
  row mostly hit L2).
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
    # rows of 4096 two-byte values on 8 warps: 4096 x 4096 21.1 -> 20.2 us, 16384 x 4096 67.6 ->
    # 67.0 on the H200 (bench/long_rows_tuning.py --no-looped, call 30; bench/results/launch_tuning.md)
    # float32 rows of 4096 on 16 warps: 16384 x 4096 132.7 -> 128.9 us (call 70; 8 warps 131.2)
    (4096, 2): (1, 8), (4096, 4): (1, 16),
    (8192, 2): (1, 8), (8192, 4): (1, 8),
    (16384, 2): (1, 16), (16384, 4): (1, 16),
    # whole rows of 32768 in registers: 1.1-1.5x the looped kernel at 1024 x 32768 on the H200
    # (bench/long_rows_tuning.py; bench/results/long_rows_tuning.txt)
    (32768, 2): (1, 32), (32768, 4): (1, 32),
}
MIN_PROGRAMS = 128   # below this, fewer rows per program: keep every SM busy for small M


@triton.jit
def layernorm_rows_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                          stride_w, stride_b, eps,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, WB_FIRST: tl.constexpr = False):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    col_mask = cols < N
    if WB_FIRST:
        # Few rows: the time is one chain of memory round trips, so weight and bias are
        # requested together with x instead of after the reductions.
        w = tl.load(w_ptr + cols * stride_w, mask=col_mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols * stride_b, mask=col_mask, other=0.0).to(tl.float32)
    # Rows past the end re-read the last row; only real rows are stored.
    row_offsets = tl.minimum(rows, M - 1).to(tl.int64)[:, None]
    x = tl.load(x_ptr + row_offsets * stride_xm + cols[None, :] * stride_xn,
                mask=col_mask[None, :], other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / N
    centred = tl.where(col_mask[None, :], x - mean[:, None], 0.0)
    rstd = tl.rsqrt(tl.sum(centred * centred, axis=1) / N + eps)
    if not WB_FIRST:
        # Many rows: weight and bias are loaded after the reductions (every program reads
        # them, so they come from L2), which keeps them out of registers while the row is
        # reduced.
        w = tl.load(w_ptr + cols * stride_w, mask=col_mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols * stride_b, mask=col_mask, other=0.0).to(tl.float32)
    y = centred * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cols[None, :],
             y.to(y_ptr.dtype.element_ty), mask=(rows < M)[:, None] & col_mask[None, :])


@triton.jit
def layernorm_looped_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym,
                            stride_w, stride_b, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_xm
    y_row = y_ptr + row * stride_ym
    acc = tl.zeros([BLOCK_N], tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        acc += tl.load(x_row + cols * stride_xn, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK_N], tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols * stride_xn, mask=cols < N, other=0.0).to(tl.float32)
        centred = tl.where(cols < N, x - mean, 0.0)
        acc += centred * centred
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_row + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols * stride_w, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols * stride_b, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def layernorm_two_pass_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N: tl.constexpr, stride_xm, stride_xn, stride_ym,
                              stride_w, stride_b, eps, BLOCK_N: tl.constexpr, WIDE: tl.constexpr):
    """Two reads of the row instead of three: Welford's update per lane in the first (each
    lane keeps the mean and the sum of squared deviations of the values it saw), the lanes
    merged exactly (Chan et al.: m2 = sum m2_l + sum n_l (mean_l - mean)^2), then the output.
    The first pass marks x evict_last so the second finds it in L2. Deviations, never
    E[x^2] - E[x]^2: rows far from zero keep their variance."""
    row = tl.program_id(0)
    if WIDE:
        row = row.to(tl.int64)
    x_row = x_ptr + row * stride_xm
    y_row = y_ptr + row * stride_ym
    mean = tl.zeros([BLOCK_N], tl.float32)
    m2 = tl.zeros([BLOCK_N], tl.float32)
    if N % BLOCK_N == 0:
        # every lane sees N / BLOCK_N values: one count for all
        count = 0.0
        for start in range(0, N, BLOCK_N):
            cols = start + tl.arange(0, BLOCK_N)
            x = tl.load(x_row + cols * stride_xn, eviction_policy="evict_last").to(tl.float32)
            count += 1.0
            delta = x - mean
            mean += delta / count
            m2 += delta * (x - mean)
        row_mean = tl.sum(mean, axis=0) / BLOCK_N
        spread = mean - row_mean
        var = (tl.sum(m2, axis=0) + count * tl.sum(spread * spread, axis=0)) / N
    else:
        counts = tl.zeros([BLOCK_N], tl.float32)
        for start in range(0, N, BLOCK_N):
            cols = start + tl.arange(0, BLOCK_N)
            mask = cols < N
            x = tl.load(x_row + cols * stride_xn, mask=mask, other=0.0,
                        eviction_policy="evict_last").to(tl.float32)
            counts += mask.to(tl.float32)
            delta = tl.where(mask, x - mean, 0.0)
            mean += delta / tl.maximum(counts, 1.0)
            m2 += delta * (x - mean)
        row_mean = tl.sum(counts * mean, axis=0) / N
        spread = mean - row_mean
        var = (tl.sum(m2, axis=0) + tl.sum(counts * spread * spread, axis=0)) / N
    rstd = tl.rsqrt(var + eps)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_row + cols * stride_xn, mask=mask, other=0.0,
                    eviction_policy="evict_first").to(tl.float32)
        w = tl.load(w_ptr + cols * stride_w, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
        b = tl.load(b_ptr + cols * stride_b, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
        tl.store(y_row + cols, ((x - row_mean) * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)


# (BLOCK_N of the row, bytes per element) -> (chunk, num_warps): many rows (at least
# TWO_PASS_MIN_ROWS, default more than MIN_PROGRAMS) of 8193-16384 two-byte values run the
# two-pass kernel instead of holding the row in registers; the second read comes from L2 (a
# chunk at a time needs fewer registers a thread: the likely reason, not profiled). This is how
# torch.compile's Inductor writes it (bench/inductor_code.py); on the H200 it took 4096 x 16384
# from 74.0 to 67.9 us and 16384 x 16384 from 270.6 to 258.6 (bench/inductor_like.py, call 27;
# bench/results/launch_tuning.md). float32 rows of 4096 and 8192 too, Inductor's launch for them
# (call 72): 16384 x 4096 129.1 -> 126.0 us, 4096 x 8192 67.7 -> 66.4 (call 73, against
# torch.compile's 125.7 and 66.6), 1024 x 8192 21.3 -> 19.9 (call 74); at 4096 x 4096 the fused
# kernel stays ahead (32.6 against 34.2), hence the row minimum (8192 x 4096: 65.0, level with
# torch.compile's 65.2, call 74).
TWO_PASS = {(16384, 2): (2048, 16), (4096, 4): (2048, 16), (8192, 4): (2048, 16)}
TWO_PASS_MIN_ROWS = {(4096, 4): 8192, (8192, 4): 1024}


def two_pass_launch(M: int, N: int, itemsize: int) -> "tuple[int, int] | None":
    """(chunk, num_warps) of the two-pass kernel where TWO_PASS takes [M, N] rows, else None."""
    key = (triton.next_power_of_2(N), itemsize)
    return TWO_PASS.get(key) if M >= TWO_PASS_MIN_ROWS.get(key, MIN_PROGRAMS + 1) else None


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
        # Few rows (decode: 1-128 tokens): one row per program and more warps on it: 1.1-1.25x
        # at 1-128 x 4096-16384 on the H200 (bench/long_rows_tuning.py --no-looped;
        # bench/results/small_m_tuning.txt). With weight and bias loaded first (WB_FIRST), 8
        # warps for rows of 4096-8192 and 16 for 16384 were fastest (another 4-6%: call 21,
        # bench/results/launch_tuning.md).
        num_warps = max(num_warps, min(32, block_n // 256))
        if 4096 <= block_n <= 16384:
            num_warps = 8 if block_n <= 8192 else 16
    return block_m, block_n, num_warps


def layernorm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    """LayerNorm over the last dimension of a 2-D tensor; returns a new contiguous tensor."""
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    two_pass = two_pass_launch(M, N, x.element_size())
    if two_pass is not None:
        chunk, num_warps = two_pass
        # the largest offset either pointer reaches, against int32
        wide = max(M * x.stride(0) + N * x.stride(1), M * y.stride(0)) >= 2**31
        layernorm_two_pass_kernel[(M,)](
            x, weight, bias, y, N, x.stride(0), x.stride(1), y.stride(0), weight.stride(0),
            bias.stride(0), eps, BLOCK_N=chunk, WIDE=wide, num_warps=num_warps)
    elif N <= 16384 or (N <= MAX_FUSED_N and x.element_size() <= 4):
        block_m, block_n, num_warps = launch_config(x)
        layernorm_rows_kernel[(triton.cdiv(M, block_m),)](
            x, weight, bias, y, M, N, x.stride(0), x.stride(1), y.stride(0),
            weight.stride(0), bias.stride(0), eps,
            BLOCK_M=block_m, BLOCK_N=block_n, WB_FIRST=M <= MIN_PROGRAMS, num_warps=num_warps)
    else:
        layernorm_looped_kernel[(M,)](
            x, weight, bias, y, N, x.stride(0), x.stride(1), y.stride(0),
            weight.stride(0), bias.stride(0), eps, BLOCK_N=8192, num_warps=16)
    return y


if __name__ == "__main__":
    # Quick self-check: python kernels/layernorm/solution.py (on a GPU)
    x = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    w, b = torch.randn(4096, device="cuda", dtype=x.dtype), torch.randn(4096, device="cuda", dtype=x.dtype)
    expected = torch.nn.functional.layer_norm(x, (4096,), w, b, 1e-5)
    torch.testing.assert_close(layernorm(x, w, b, 1e-5), expected, atol=1e-2, rtol=1e-2)
    ms = triton.testing.do_bench(lambda: layernorm(x, w, b, 1e-5))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
