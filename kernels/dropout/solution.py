"""Reference solution: dropout whose mask is Triton's counter-based Philox stream, one kernel.

Element (i, j) of x (M, N) draws r = tl.rand(seed, i * N + j) with an int32 offset and is
kept when r >= p: y = x * (1 / (1 - p)) where kept, else 0. The mask is a pure function of
(seed, i, j): nothing is stored, nothing is read back, and the backward pass (or a rerun)
regenerates the same mask from the seed alone. That is why fused dropout in Triton and
FlashAttention carry a seed and an offset instead of a mask tensor.

Why it is fast: dropout moves 2 * M * N * itemsize bytes (read x, write y); a stored uint8 or
bool mask would add M * N bytes on the way forward and again on the way back. The kernel
reads x once, in 16-byte vectors where the layout allows, and writes y once. A contiguous x
(or one whose rows are packed, stride(0) == N) is handled as a single row of M * N
elements, so its offsets i * N + j are plain consecutive integers and the tiles are long
1-D runs with no row bookkeeping; other layouts use 2-D tiles with both strides.

The cost to watch is Philox itself: ten rounds of two 32x32->64-bit multiplies and a few
xors per element, ~50 integer instructions. In fp32 that is well below the memory time; in
fp16/bf16 (4 bytes moved per element) it is of the same order as the memory time on an
H100, so enough warps must be resident to overlap the two (8 warps, 4096 elements a
program). tl.rand4x would amortise one Philox call over four elements, but the drill's
stream is one tl.rand call per offset; see the statement. Not yet timed on a GPU.

Offsets stay int32 (the statement requires it: tl.rand's stream for an int64 offset is a
different one); pointer offsets are int64.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def dropout_kernel(x_ptr, y_ptr, M, N, stride_m, stride_n, p, scale, seed, n_blocks_n,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // n_blocks_n
    pid_n = pid % n_blocks_n
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    x = tl.load(x_ptr + rows.to(tl.int64)[:, None] * stride_m + cols.to(tl.int64)[None, :] * stride_n,
                mask=mask, other=0.0)
    offsets = rows[:, None] * N + cols[None, :]          # int32: the stream's counter
    r = tl.rand(seed, offsets)
    y = tl.where(r >= p, x.to(tl.float32) * scale, 0.0)
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * N + cols[None, :], y.to(y_ptr.dtype.element_ty),
             mask=mask)


ELEMS_PER_PROGRAM = 4096


def dropout(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    """Return x with elements zeroed where tl.rand(seed, i * N + j) < p and the rest scaled
    by 1 / (1 - p), as a new contiguous tensor of x's dtype."""
    assert x.ndim == 2 and 0.0 <= p < 1.0
    M, N = x.shape
    assert M * N < 2 ** 31, "offsets i * N + j must fit in int32"
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    if M * N == 0:
        return y
    if x.stride(1) == 1 and (x.stride(0) == N or M == 1):
        rows, cols, stride_m, stride_n = 1, M * N, M * N, 1      # one long row: offsets are 0..MN-1
    else:
        rows, cols, stride_m, stride_n = M, N, x.stride(0), x.stride(1)
    block_n = min(triton.next_power_of_2(cols), ELEMS_PER_PROGRAM)
    block_m = max(1, min(ELEMS_PER_PROGRAM // block_n, triton.next_power_of_2(rows)))
    n_blocks_n = triton.cdiv(cols, block_n)
    grid = (triton.cdiv(rows, block_m) * n_blocks_n,)
    dropout_kernel[grid](x, y, rows, cols, stride_m, stride_n, p, 1.0 / (1.0 - p), seed, n_blocks_n,
                         BLOCK_M=block_m, BLOCK_N=block_n, num_warps=8 if block_m * block_n >= 2048 else 4)
    return y


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/dropout/solution.py
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    y = dropout(x, 0.1, 1234)
    assert torch.equal(y, dropout(x, 0.1, 1234))
    print("kept", float((y != 0).float().mean()))
    ms = triton.testing.do_bench(lambda: dropout(x, 0.1, 1234))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
