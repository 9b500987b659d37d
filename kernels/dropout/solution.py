"""Reference solution: dropout whose mask is a counter-based Philox stream, one kernel.

Element (i, j) of x (M, N) has the logical index e = i * N + j (int32) and draws r = word
e % 4 of Philox-4x32-10 on counter (e // 4, 0, 0, 0) with key (seed mod 2^32, seed >> 32),
as a uniform float32; it is kept when r >= p: y = x * (1 / (1 - p)) where kept, else 0.
`tl.rand4x(seed, c)` returns exactly the four uniforms of counter c, so one call serves
elements 4c .. 4c + 3. The mask is a pure function of (seed, i, j): nothing is stored,
nothing is read back, and the backward pass (or a rerun) regenerates the same mask from
the seed alone. That is why fused dropout in Triton and FlashAttention carry a seed and an
offset instead of a mask tensor.

Why it is fast: dropout moves 2 * M * N * itemsize bytes (read x, write y); a stored uint8 or
bool mask would add M * N bytes on the way forward and again on the way back. The kernel
reads x once and writes y once, in 16-byte vectors where the layout allows. A contiguous x
(or one whose rows are packed, stride(0) == N) is handled as a single row of M * N
elements, so its indices e are plain consecutive integers: a program takes BLOCK of them
(BLOCK a multiple of 4, so it starts on a counter boundary), calls tl.rand4x once on the
BLOCK / 4 counters and interleaves the four results into element order,
join(join(r0, r2), join(r1, r3)) reshaped to BLOCK: element 4c + w is word w of counter c.

The cost to watch is Philox itself: ten rounds of two 32x32->64-bit multiplies and four
xors, 60 to 80 integer instructions a call. With one call per element (tl.rand(seed, e))
that is more integer work than the GPU does while its memory moves the element, and the
kernel is integer-bound; with one call per four elements it is 15 to 20 instructions per
element plus the conversion, compare and select, which is meant to bring the kernel to the
memory bound. Packed rows run on 4 warps a program: 1024 elements in float32 (8 a thread),
4096 in bf16 / fp16 (32 a thread, 8 Philox calls); calls 92-93 timed both 3-5% faster than
4096 on 8 warps (one_d_launch).
Compiled for sm_90 with Triton 3.6, the 1-D kernel has no layout conversion or shared
memory (the interleave stays in registers) and 16-byte loads and stores in fp32 and bf16.
On an H200: fp32 93-96% of copy bandwidth from 8192 x 4096 up, bf16 73-82% (the integer work
still about matches the memory time at 4 bytes an element); 1.07-1.43x torch's dropout in
bf16 (bench/results/h200_catalogue.md).

Other layouts (padded rows, transposed views) use 2-D tiles with both strides. When N is a
multiple of 4 the four elements of a counter are the same row's consecutive columns, so the
tile takes the same rand4x-and-interleave path on (BLOCK_M, BLOCK_N / 4) counters. When it
is not, a counter's four elements can straddle two rows: each element then computes the
Philox call of its own counter e // 4 and keeps word e % 4 (one call per element, correct
but four times the integer work; no benchmark shape takes this path).

Indices stay int32 (M * N < 2^31, so e // 4 < 2^29); pointer offsets are int64.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _interleave4(r0, r1, r2, r3, shape: tl.constexpr):
    """Four (..., K) blocks to one (..., 4K) block with element 4c + w = r_w[c]. tl.join(a, b)
    adds a new last axis [a, b]; joining two joins adds another, so the result is indexed
    [..., c, u, v] = (r0, r2 | r1, r3)[u + 2 v]: with the pairs (r0, r2) and (r1, r3), the
    row-major order of (u, v) is r0, r1, r2, r3."""
    return tl.reshape(tl.join(tl.join(r0, r2), tl.join(r1, r3)), shape)


@triton.jit
def dropout_1d_kernel(x_ptr, y_ptr, total, p, scale, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    counters = pid * (BLOCK // 4) + tl.arange(0, BLOCK // 4)       # int32: e // 4 of this tile
    r0, r1, r2, r3 = tl.rand4x(seed, counters)
    r = _interleave4(r0, r1, r2, r3, [BLOCK])
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.where(r >= p, x.to(tl.float32) * scale, 0.0)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def dropout_2d_kernel(x_ptr, y_ptr, M, N, stride_m, stride_n, p, scale, seed, n_blocks_n,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, N_MULTIPLE_OF_4: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // n_blocks_n
    pid_n = pid % n_blocks_n
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if N_MULTIPLE_OF_4:
        # Columns 4c .. 4c + 3 of row i are e = 4 * (i * N / 4 + c) + w: one counter each group.
        groups = pid_n * (BLOCK_N // 4) + tl.arange(0, BLOCK_N // 4)
        r0, r1, r2, r3 = tl.rand4x(seed, rows[:, None] * (N // 4) + groups[None, :])
        r = _interleave4(r0, r1, r2, r3, [BLOCK_M, BLOCK_N])
    else:
        e = rows[:, None] * N + cols[None, :]                          # int32 logical index
        r0, r1, r2, r3 = tl.rand4x(seed, e // 4)
        word = e % 4
        r = tl.where(word == 0, r0, tl.where(word == 1, r1, tl.where(word == 2, r2, r3)))
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    x = tl.load(x_ptr + rows.to(tl.int64)[:, None] * stride_m + cols.to(tl.int64)[None, :] * stride_n,
                mask=mask, other=0.0)
    y = tl.where(r >= p, x.to(tl.float32) * scale, 0.0)
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * N + cols[None, :], y.to(y_ptr.dtype.element_ty),
             mask=mask)


ELEMS_PER_PROGRAM = 4096


def one_d_launch(total: int, itemsize: int) -> tuple[int, int]:
    """(BLOCK, num_warps) of the packed-rows kernel. float32: 1024 elements on 4 warps (8 a
    thread); 2-byte x: 4096 on 4 warps (32 a thread, 8 Philox calls: more independent integer
    work to overlap the loads). On an H200 (calls 92-93), from 4096 on 8 warps: float32
    8192 x 4096 67.4 -> 65.0 us and 65536 x 4096 524.0 -> 505.0; bf16 42.6 -> 41.3 and
    305.3 -> 295.6."""
    return max(4, min(triton.next_power_of_2(total), 1024 if itemsize == 4 else ELEMS_PER_PROGRAM)), 4


def dropout(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    """Return x with element e = i * N + j zeroed where word e % 4 of Philox(seed, e // 4),
    as a uniform, is below p and the rest scaled by 1 / (1 - p), as a new contiguous tensor
    of x's dtype."""
    assert x.ndim == 2 and 0.0 <= p < 1.0
    M, N = x.shape
    total = M * N
    assert total < 2 ** 31, "indices i * N + j must fit in int32"
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    if total == 0:
        return y
    scale = 1.0 / (1.0 - p)
    if x.stride(1) == 1 and (x.stride(0) == N or M == 1):       # packed rows: e = 0 .. MN - 1
        block, num_warps = one_d_launch(total, x.element_size())
        dropout_1d_kernel[(triton.cdiv(total, block),)](
            x, y, total, p, scale, seed, BLOCK=block, num_warps=num_warps)
        return y
    block_n = max(4, min(triton.next_power_of_2(N), ELEMS_PER_PROGRAM))
    block_m = max(1, min(ELEMS_PER_PROGRAM // block_n, triton.next_power_of_2(M)))
    n_blocks_n = triton.cdiv(N, block_n)
    grid = (triton.cdiv(M, block_m) * n_blocks_n,)
    dropout_2d_kernel[grid](x, y, M, N, x.stride(0), x.stride(1), p, scale, seed, n_blocks_n,
                            BLOCK_M=block_m, BLOCK_N=block_n, N_MULTIPLE_OF_4=N % 4 == 0,
                            num_warps=8 if block_m * block_n >= 2048 else 4)
    return y


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/dropout/solution.py
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    y = dropout(x, 0.1, 1234)
    assert torch.equal(y, dropout(x, 0.1, 1234))
    print("kept", float((y != 0).float().mean()))
    ms = triton.testing.do_bench(lambda: dropout(x, 0.1, 1234))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
