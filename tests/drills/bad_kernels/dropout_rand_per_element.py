"""dropout with the right logical index e = i * N + j but one tl.rand(seed, e) per element:
word 0 of counter e, where the drill's stream takes word e % 4 of counter e // 4. The two
agree only at e = 0, so it passes a single element and p = 0, and fails every other case."""
import torch
import triton
import triton.language as tl


@triton.jit
def dropout_kernel(x_ptr, y_ptr, M, N, stride_m, stride_n, p, scale, seed,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    x = tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :] * stride_n, mask=mask, other=0.0)
    r = tl.rand(seed, rows[:, None] * N + cols[None, :])
    y = tl.where(r >= p, x.to(tl.float32) * scale, 0.0)
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


def dropout(x, p, seed):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    dropout_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 256))](
        x, y, M, N, x.stride(0), x.stride(1), p, 1.0 / (1.0 - p), seed, BLOCK_M=16, BLOCK_N=256)
    return y
