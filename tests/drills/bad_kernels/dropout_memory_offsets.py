"""dropout whose Philox index is the memory offset i * stride(0) + j * stride(1) instead of
the logical i * N + j: right for contiguous x, another mask for padded rows and transposed views."""
import torch
import triton
import triton.language as tl


@triton.jit
def dropout_kernel(x_ptr, y_ptr, M, N, stride_m, stride_n, p, scale, seed,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    mem = rows[:, None] * stride_m + cols[None, :] * stride_n
    x = tl.load(x_ptr + mem, mask=mask, other=0.0)
    r0, r1, r2, r3 = tl.rand4x(seed, mem // 4)
    word = mem % 4
    r = tl.where(word == 0, r0, tl.where(word == 1, r1, tl.where(word == 2, r2, r3)))
    y = tl.where(r >= p, x.to(tl.float32) * scale, 0.0)
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


def dropout(x, p, seed):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    dropout_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 256))](
        x, y, M, N, x.stride(0), x.stride(1), p, 1.0 / (1.0 - p), seed, BLOCK_M=16, BLOCK_N=256)
    return y
