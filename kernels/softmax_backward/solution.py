"""Reference solution: softmax backward, dX = Y * (dY - rowsum(Y * dY)), in Triton.

Derivation: y = softmax(x) has Jacobian dy_i/dx_j = y_i (delta_ij - y_j), so
dx_j = sum_i dy_i y_i (delta_ij - y_j) = y_j (dy_j - sum_i y_i dy_i). Only y is needed
(not x), and one dot product per row.

Memory-bound: read y and dy, write dx (bytes model 3 * M * N * itemsize), ~4 flops per
element. The row dot product is taken in float32. Which kernel runs depends on the
rows, as measured:

- Rows up to 64 KiB (32k fp16, 16k fp32 columns): `softmax_bwd_rows_kernel`, whole rows
  in registers (one read of each input), BLOCK_M rows per program.
- Except many rows (M > 128) of 1025-16384 two-byte values: `softmax_bwd_two_pass_kernel`
  (TWO_PASS) reads the row twice, the second time from L2, a chunk at a time. On the H200
  that was faster than holding the row in registers (as torch.compile's kernel does).
- Longer rows: `softmax_bwd_looped_kernel` needs the dot product before it can write
  anything, so it reads the row twice. With one program per row, ~500 rows are in flight
  at once, and at 32k float32 columns (256 KiB of y and dy per row) that is far more than
  the 50 MB L2: the second pass went back to HBM (5 transfers instead of 3, 60% of copy
  bandwidth). The kernel now keeps the row's first HEAD columns (64 KiB) in registers,
  so only the rest is read twice, and marks the first pass `evict_last` so the re-read
  finds it in L2. A persistent grid (few rows in flight) was tried and did not beat this
  (bench/results/catalogue_tuning.md).
"""

import torch
import triton
import triton.language as tl



@triton.jit
def softmax_bwd_rows_kernel(y_ptr, dy_ptr, dx_ptr, M, N, stride_ym, stride_yn,
                            stride_dym, stride_dyn, stride_dxm,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    rows64 = rows.to(tl.int64)[:, None]
    y = tl.load(y_ptr + rows64 * stride_ym + cols[None, :] * stride_yn, mask=mask,
                other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + rows64 * stride_dym + cols[None, :] * stride_dyn, mask=mask,
                 other=0.0).to(tl.float32)
    dot = tl.sum(y * dy, axis=1)
    dx = y * (dy - dot[:, None])
    tl.store(dx_ptr + rows64 * stride_dxm + cols[None, :], dx.to(dx_ptr.dtype.element_ty),
             mask=mask)


@triton.jit
def softmax_bwd_looped_kernel(y_ptr, dy_ptr, dx_ptr, N, stride_ym, stride_yn, stride_dym,
                              stride_dyn, stride_dxm, BLOCK_N: tl.constexpr, HEAD: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y_row, dy_row, dx_row = y_ptr + row * stride_ym, dy_ptr + row * stride_dym, dx_ptr + row * stride_dxm
    hc = tl.arange(0, HEAD)              # the head stays in registers: read once
    y_h = tl.load(y_row + hc * stride_yn, mask=hc < N, other=0.0).to(tl.float32)
    dy_h = tl.load(dy_row + hc * stride_dyn, mask=hc < N, other=0.0).to(tl.float32)
    dot = tl.sum(y_h * dy_h, axis=0)
    acc = tl.zeros([BLOCK_N], tl.float32)
    for start in range(HEAD, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        y = tl.load(y_row + cols * stride_yn, mask=cols < N, other=0.0,
                    eviction_policy="evict_last").to(tl.float32)
        dy = tl.load(dy_row + cols * stride_dyn, mask=cols < N, other=0.0,
                     eviction_policy="evict_last").to(tl.float32)
        acc += y * dy
    dot += tl.sum(acc, axis=0)
    tl.store(dx_row + hc, (y_h * (dy_h - dot)).to(dx_ptr.dtype.element_ty), mask=hc < N)
    for start in range(HEAD, N, BLOCK_N):    # the tail again, mostly from L2
        cols = start + tl.arange(0, BLOCK_N)
        y = tl.load(y_row + cols * stride_yn, mask=cols < N, other=0.0,
                    eviction_policy="evict_first").to(tl.float32)
        dy = tl.load(dy_row + cols * stride_dyn, mask=cols < N, other=0.0,
                     eviction_policy="evict_first").to(tl.float32)
        tl.store(dx_row + cols, (y * (dy - dot)).to(dx_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def softmax_bwd_two_pass_kernel(y_ptr, dy_ptr, dx_ptr, N: tl.constexpr, stride_ym, stride_yn, stride_dym,
                                stride_dyn, stride_dxm, BLOCK_N: tl.constexpr, WIDE: tl.constexpr):
    """The dot product over the row in BLOCK_N chunks, then dx from a second read. The first
    read marks y and dy evict_last so the second finds them in L2 (and marks them
    evict_first). WIDE: 64-bit row offsets (only needed past 2^31 elements)."""
    row = tl.program_id(0)
    if WIDE:
        row = row.to(tl.int64)
    y_row, dy_row, dx_row = y_ptr + row * stride_ym, dy_ptr + row * stride_dym, dx_ptr + row * stride_dxm
    acc = tl.zeros([BLOCK_N], tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        y = tl.load(y_row + cols * stride_yn, mask=cols < N, other=0.0,
                    eviction_policy="evict_last").to(tl.float32)
        dy = tl.load(dy_row + cols * stride_dyn, mask=cols < N, other=0.0,
                     eviction_policy="evict_last").to(tl.float32)
        acc += y * dy
    dot = tl.sum(acc, axis=0)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        y = tl.load(y_row + cols * stride_yn, mask=cols < N, other=0.0,
                    eviction_policy="evict_first").to(tl.float32)
        dy = tl.load(dy_row + cols * stride_dyn, mask=cols < N, other=0.0,
                     eviction_policy="evict_first").to(tl.float32)
        tl.store(dx_row + cols, (y * (dy - dot)).to(dx_ptr.dtype.element_ty), mask=cols < N)


# From the H100 sweep: rows up to this many bytes live in registers; longer rows keep that
# many bytes of head there and loop over the rest in LOOPED_BLOCK_N chunks.
ROW_BYTES_IN_REGISTERS = 64 << 10
LOOPED_BLOCK_N, LOOPED_WARPS = 4096, 16
# (BLOCK_N of the row, bytes per element) -> (chunk, num_warps): many rows (M > 128) of
# 1025-16384 two-byte values take two reads of the row, the second from L2, instead of
# holding it in registers (a chunk at a time needs fewer registers a thread: the likely reason,
# not profiled). This is how
# torch.compile's Inductor writes it (bench/inductor_code.py); on the H200 it took 4096 x 16384
# from 96.9 to 91.7 us, 4096 x 8192 from 48.3 to 47.0 (bench/inductor_like.py, call 27),
# 65536 x 4096 from 368.5 to 360.4 and 32768 x 2048 from 92.6 to 90.9 (call 30;
# bench/results/launch_tuning.md).
TWO_PASS = {(2048, 2): (2048, 8), (4096, 2): (2048, 16), (8192, 2): (4096, 16), (16384, 2): (8192, 32)}


def softmax_backward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    """Return dx = y * (dy - sum(y * dy, -1)) for 2-D y, dy of one shape and dtype."""
    assert y.ndim == 2 and y.shape == dy.shape and y.dtype == dy.dtype
    M, N = y.shape
    dx = torch.empty((M, N), dtype=y.dtype, device=y.device)
    in_registers = ROW_BYTES_IN_REGISTERS // y.element_size()
    two_pass = TWO_PASS.get((triton.next_power_of_2(N), y.element_size())) if M > 128 else None
    if two_pass is not None:
        chunk, num_warps = two_pass
        # the largest offset any of the three pointers reaches, against int32
        wide = max(M * t.stride(0) + N * t.stride(1) for t in (y, dy, dx)) >= 2**31
        softmax_bwd_two_pass_kernel[(M,)](y, dy, dx, N, y.stride(0), y.stride(1), dy.stride(0),
                                          dy.stride(1), dx.stride(0), BLOCK_N=chunk, WIDE=wide,
                                          num_warps=num_warps)
    elif N <= in_registers:
        block_n = triton.next_power_of_2(N)
        block_m = max(1, min(2048 // block_n, triton.next_power_of_2(M)))
        num_warps = min(16, max(4, block_m * block_n // 512))
        softmax_bwd_rows_kernel[(triton.cdiv(M, block_m),)](
            y, dy, dx, M, N, y.stride(0), y.stride(1), dy.stride(0), dy.stride(1), dx.stride(0),
            BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
    else:
        softmax_bwd_looped_kernel[(M,)](y, dy, dx, N, y.stride(0), y.stride(1), dy.stride(0),
                                        dy.stride(1), dx.stride(0), BLOCK_N=LOOPED_BLOCK_N,
                                        HEAD=in_registers, num_warps=LOOPED_WARPS)
    return dx


if __name__ == "__main__":
    y = torch.softmax(torch.randn(4096, 4096, device="cuda"), -1).half()
    dy = torch.randn_like(y)
    torch.testing.assert_close(softmax_backward(y, dy),
                               torch._softmax_backward_data(dy, y, -1, y.dtype))
    ms = triton.testing.do_bench(lambda: softmax_backward(y, dy))
    print(f"{3 * y.numel() * y.element_size() / ms * 1e-6:.0f} GB/s")
