"""Reference solution: inclusive prefix sum along the rows, y[i, j] = sum_{k <= j} x[i, k].

A scan reads M*N elements and writes M*N: bytes model 2 * M * N * itemsize, about one add
per element, so it is memory-bound and the goal is to move x and y once at the copy
bandwidth. What makes a scan harder than a reduction is the dependency along the row:
element j needs everything before it. Three launch shapes cover the cases:

- **Rows that fit one block** (N <= MAX_ROW): `scan_rows_kernel` loads BLOCK_M whole rows,
  scans them in registers with `tl.cumsum(..., axis=1)` (Triton lowers it to a scan inside
  each thread, then warp shuffles, then one step through shared memory across warps) and
  stores them. One read, one write, fully parallel.
- **Long rows, many of them** (M >= MANY_ROWS): `scan_carry_kernel`, one program per row,
  walks the row in blocks (CARRY_LAUNCH) and keeps a running float32 *carry*: each block is
  scanned locally and shifted by the carry, then the carry grows by the block's total.
  Still one read and one write; the M programs in flight keep the memory system busy.
- **Long rows, few of them** (a handful of rows of 10^5-10^7 elements): one program per row
  would leave most SMs idle, so the row is split over many programs, *reduce-then-scan*:
  `chunk_sums_kernel` writes the total of every chunk, `scan_carry_kernel` (reused) scans
  the short row of chunk totals in place, and `scan_chunks_kernel` rescans every chunk
  shifted by the inclusive total of the chunks before it. x is read twice (the second read
  often hits L2 for moderate sizes): 3 * M * N * itemsize of traffic instead of 2. A
  single-pass scan with decoupled look-back (see the statement) removes that extra read
  at the price of inter-program flags and spinning. Call 94 timed one on an H200
  (bench/launch_tuning.py's lookback_scan_kernel: a chunk walks back one predecessor at a
  time): correct, but slower in five of six points (64 x 262144 bf16 45.0 against 29.8 us,
  4 x 4194304 bf16 78.4 against 29.8; only 64 x 262144 float32 gained, 48.1 against 54.5):
  the one-at-a-time walk serialises on the flags. CUB reads a warp's width of predecessors
  at once; that is not tried here.

Numerics: every partial sum is float32 (`tl.cumsum(x, dtype=...)` on float16 input would
otherwise add in float16), rounded to x's dtype once at the store. Local scans and the
chunk totals are tree-shaped, so the error grows far slower than in a one-element-at-a-time
loop. Strides are honoured, so strided rows and transposed views need no copy; offsets are
int64 (4 x 4M elements is fine, and so is a row pitch past 2^31).
"""

import torch
import triton
import triton.language as tl

MAX_ROW = 4096      # rows up to this many elements are scanned whole in registers
CHUNK = 4096        # block width for long rows
MANY_ROWS = 128     # from this many long rows on, one program per row is parallel enough
# (chunk, warps) of the carry loop over many long rows, by element size: 2-byte rows in 1024-wide
# chunks on 4 warps (one 16-byte load a thread a chunk), float32 in 8192-wide chunks on 8 warps.
# On an H200 at 4096 x 16384 (call 92): bf16 75.1 -> 71.7 us, float32 143.7 -> 139.2, from 4096
# on 8 warps for both.
CARRY_LAUNCH = {2: (1024, 4), 4: (8192, 8)}


@triton.jit
def scan_rows_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    rows64 = rows.to(tl.int64)[:, None]
    x = tl.load(x_ptr + rows64 * stride_xm + cols[None, :] * stride_xn, mask=mask, other=0.0)
    y = tl.cumsum(x.to(tl.float32), axis=1)
    tl.store(y_ptr + rows64 * stride_ym + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def scan_carry_kernel(x_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_xm
    y_row = y_ptr + row * stride_ym
    carry = tl.sum(tl.zeros([BLOCK_N], tl.float32), axis=0)     # a float32 scalar 0
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_row + cols * stride_xn, mask=mask, other=0.0,
                    eviction_policy="evict_first").to(tl.float32)
        y = tl.cumsum(x, axis=0) + carry
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=mask)
        carry += tl.sum(x, axis=0)


@triton.jit
def chunk_sums_kernel(x_ptr, sums_ptr, N, n_chunks, stride_xm, stride_xn, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    chunk = tl.program_id(1)
    cols = chunk * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=cols < N, other=0.0)
    tl.store(sums_ptr + row * n_chunks + chunk, tl.sum(x.to(tl.float32), axis=0))


@triton.jit
def scan_chunks_kernel(x_ptr, y_ptr, incl_ptr, N, n_chunks, stride_xm, stride_xn, stride_ym,
                       BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    chunk = tl.program_id(1)
    # Total of every chunk before this one: the inclusive scan of the chunk sums at chunk-1.
    prev = tl.load(incl_ptr + row * n_chunks + tl.maximum(chunk - 1, 0))
    offset = tl.where(chunk > 0, prev, 0.0)
    cols = chunk * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0)
    y = tl.cumsum(x.to(tl.float32), axis=0) + offset
    tl.store(y_ptr + row * stride_ym + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def rows_launch(M: int, N: int) -> tuple[int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps) for whole rows: a tile of ~4096 elements."""
    block_n = triton.next_power_of_2(N)
    block_m = max(1, min(4096 // block_n, triton.next_power_of_2(M)))
    return block_m, block_n, 8 if block_m * block_n >= 4096 else 4


def prefix_sum(x: torch.Tensor) -> torch.Tensor:
    """Inclusive scan of each row of a 2-D tensor; a new contiguous (M, N) tensor of x's dtype."""
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    if M == 0 or N == 0:
        return y
    if N <= MAX_ROW:
        block_m, block_n, num_warps = rows_launch(M, N)
        scan_rows_kernel[(triton.cdiv(M, block_m),)](
            x, y, M, N, x.stride(0), x.stride(1), y.stride(0),
            BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
    elif M >= MANY_ROWS:
        chunk, num_warps = CARRY_LAUNCH.get(x.element_size(), (CHUNK, 8))
        scan_carry_kernel[(M,)](x, y, N, x.stride(0), x.stride(1), y.stride(0),
                                BLOCK_N=chunk, num_warps=num_warps)
    else:
        n_chunks = triton.cdiv(N, CHUNK)
        sums = torch.empty((M, n_chunks), dtype=torch.float32, device=x.device)
        chunk_sums_kernel[(M, n_chunks)](x, sums, N, n_chunks, x.stride(0), x.stride(1),
                                         BLOCK_N=CHUNK, num_warps=8)
        # Scan the (M, n_chunks) totals in place: short rows, so one program each is plenty.
        scan_carry_kernel[(M,)](sums, sums, n_chunks, sums.stride(0), 1, sums.stride(0),
                                BLOCK_N=min(triton.next_power_of_2(n_chunks), 4096), num_warps=4)
        scan_chunks_kernel[(M, n_chunks)](x, y, sums, N, n_chunks, x.stride(0), x.stride(1),
                                          y.stride(0), BLOCK_N=CHUNK, num_warps=8)
    return y


if __name__ == "__main__":
    # Quick self-check: python solution.py (on a GPU)
    for shape in [(4096, 1024), (4, 4_194_304)]:
        x = torch.randn(*shape, device="cuda", dtype=torch.float16)
        torch.testing.assert_close(prefix_sum(x), x.float().cumsum(1).half(), atol=5e-3, rtol=1e-3)
        ms = triton.testing.do_bench(lambda: prefix_sum(x))
        print(shape, f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
