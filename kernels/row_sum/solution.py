"""Reference solution: s[i] = sum_j x[i, j] (row reduction) in Triton.

A reduction reads M*N elements and writes M: bytes model (M*N + M) * itemsize, one add
per element, arithmetic intensity ~1/itemsize flop/byte: deeply memory-bound. The kernel
therefore only has to stream x once at full bandwidth.

Each program owns BLOCK_M rows and walks the columns in BLOCK_N chunks, keeping a
float32 accumulator per (row, lane); `tl.sum` collapses the lanes once at the end. That
is a tree-like sum (each lane adds ~N/BLOCK_N values, then a log2(BLOCK_N) tree), which
is far more accurate than a running scalar sum and keeps fp16/bf16 inputs from losing
bits: accumulate in float32, round to x's dtype once at the store.

The launch shape follows the row length and the number of rows (`launch_config`, measured
on the H200). Strides are honoured, so strided and transposed views need no copy.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, s_ptr, M, N, stride_xm, stride_xn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    x_rows = x_ptr + rows.to(tl.int64)[:, None] * stride_xm
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols < N)[None, :]
        acc += tl.load(x_rows + cols[None, :] * stride_xn, mask=mask, other=0.0,
                       eviction_policy="evict_first").to(tl.float32)
    total = tl.sum(acc, axis=1)
    tl.store(s_ptr + rows, total.to(s_ptr.dtype.element_ty), mask=row_mask)


FEW_ROWS = 264              # fewer rows than two per SM (H100: 132 SMs)


def launch_config(M: int, N: int) -> tuple[int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps).

    Rows of 2048+ elements get a program each. Measured on the H200 (bench/launch_tuning.py,
    bench/results/launch_tuning.md), engine protocol, against the ~4096-element tiles with
    8 warps used before: many rows stream 2048 columns at a time with 8 warps (4096 x 4096:
    13.6 -> 11.9 us); few rows (M < 264: most SMs would have one row or none) take wide
    chunks and many warps, so each SM keeps more bytes in flight: 4096 columns x 16 warps
    (16 x 8192: 6.0 -> 4.6 us), rows past 16384 columns 8192 x 32 warps (256 x 131072:
    35.2 -> 19.5 us, where torch took 29.0). Shorter rows keep a ~4096-element tile of
    several rows, so tiny programs do not leave the memory system idle."""
    if N >= 2048:
        if M >= FEW_ROWS:
            # rows of 2048-4095: two rows a program in 1024-column chunks (H200, bench/inductor_like.py,
            # call 27: 16384 x 2048 24.0 -> 19.3 us; peers.py, call 29: 1.03-1.22x torch.compile
            # at 1024-16384 x 2048, was 0.96-1.02x). 4096-column chunks on 16 warps for rows of
            # 8192-16384 timed 3% faster in call 27 but no faster in call 29, and 0.78-0.87x
            # torch.compile at 1024 rows under CUDA-graph replay: not taken.
            if N < 4096:
                return 2, 1024, 8
            return 1, 2048, 8
        return (1, 4096, 16) if N <= 16384 else (1, 8192, 32)
    block_n = triton.next_power_of_2(N)
    block_m = max(1, min(4096 // block_n, triton.next_power_of_2(M)))
    return block_m, block_n, 8 if block_m * block_n >= 4096 else 4


def row_sum(x: torch.Tensor) -> torch.Tensor:
    """Return s with s[i] = sum_j x[i, j]: shape (M,), x's dtype; x is 2-D, any strides."""
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    s = torch.empty((M,), dtype=x.dtype, device=x.device)
    block_m, block_n, num_warps = launch_config(M, N)
    row_sum_kernel[(triton.cdiv(M, block_m),)](x, s, M, N, x.stride(0), x.stride(1),
                                               BLOCK_M=block_m, BLOCK_N=block_n,
                                               num_warps=num_warps)
    return s


if __name__ == "__main__":
    x = torch.randn(4096, 8192, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(row_sum(x), x.sum(1), atol=1e-1, rtol=1e-2)
    ms = triton.testing.do_bench(lambda: row_sum(x))
    print(f"{x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
