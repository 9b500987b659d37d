"""Reference solution: LayerNorm forward in Triton, one pass over memory.

Read like Triton's 05-layer-norm tutorial, minus the backward pass. LayerNorm is
memory-bound: read x once, write y once, plus weight and bias (bytes model:
(2 * M * N + 2 * N) * itemsize). The tutorial's forward kernel loops over a row three
times (mean, variance, output); here a row of up to MAX_FUSED_N columns stays in
registers, so x is read exactly once, and the variance is computed from the centred
values (two-pass in registers), never as E[x^2] - E[x]^2, which cancels catastrophically
for data far from zero.

- Rows up to MAX_FUSED_N: `layernorm_rows_kernel`, BLOCK_M rows per program so that
  short rows still give each program a few KiB to move.
- Longer rows: `layernorm_looped_kernel`, the tutorial's three loops (the re-reads of a
  row mostly hit L2).
"""

import torch
import triton
import triton.language as tl

MAX_FUSED_N = 16384


@triton.jit
def layernorm_rows_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                          stride_w, stride_b, eps,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, NUM_STAGES: tl.constexpr):
    cols = tl.arange(0, BLOCK_N)
    col_mask = cols < N
    # weight and bias are read by every program: keep them in L2 (evict_last); x and y
    # stream through once (evict_first), so they should not push anything else out.
    w = tl.load(w_ptr + cols * stride_w, mask=col_mask, other=0.0,
                eviction_policy="evict_last").to(tl.float32)
    b = tl.load(b_ptr + cols * stride_b, mask=col_mask, other=0.0,
                eviction_policy="evict_last").to(tl.float32)
    for block in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.num_programs(0),
                          num_stages=NUM_STAGES):
        rows = block * BLOCK_M + tl.arange(0, BLOCK_M)
        # Rows past the end re-read the last row; only real rows are stored.
        row_offsets = tl.minimum(rows, M - 1).to(tl.int64)[:, None]
        x = tl.load(x_ptr + row_offsets * stride_xm + cols[None, :] * stride_xn,
                    mask=col_mask[None, :], other=0.0,
                    eviction_policy="evict_first").to(tl.float32)
        mean = tl.sum(x, axis=1) / N
        centred = tl.where(col_mask[None, :], x - mean[:, None], 0.0)
        rstd = tl.rsqrt(tl.sum(centred * centred, axis=1) / N + eps)
        y = centred * rstd[:, None] * w[None, :] + b[None, :]
        tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cols[None, :],
                 y.to(y_ptr.dtype.element_ty), mask=(rows < M)[:, None] & col_mask[None, :],
                 eviction_policy="evict_first")


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


def launch_config(x: torch.Tensor) -> tuple[int, int, int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps, programs, NUM_STAGES) for layernorm_rows_kernel."""
    M, N = x.shape
    block_n = triton.next_power_of_2(N)
    block_m = max(1, 2048 // block_n)
    num_warps = min(16, max(4, block_m * block_n // 512))
    return block_m, block_n, num_warps, triton.cdiv(M, block_m), 1


def layernorm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    """LayerNorm over the last dimension of a 2-D tensor; returns a new contiguous tensor."""
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    if N <= MAX_FUSED_N:
        block_m, block_n, num_warps, programs, stages = launch_config(x)
        layernorm_rows_kernel[(programs,)](
            x, weight, bias, y, M, N, x.stride(0), x.stride(1), y.stride(0),
            weight.stride(0), bias.stride(0), eps,
            BLOCK_M=block_m, BLOCK_N=block_n, NUM_STAGES=stages, num_warps=num_warps)
    else:
        layernorm_looped_kernel[(M,)](
            x, weight, bias, y, N, x.stride(0), x.stride(1), y.stride(0),
            weight.stride(0), bias.stride(0), eps, BLOCK_N=4096, num_warps=8)
    return y


if __name__ == "__main__":
    # Quick self-check: python kernels/layernorm/solution.py (on a GPU)
    x = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    w, b = torch.randn(4096, device="cuda", dtype=x.dtype), torch.randn(4096, device="cuda", dtype=x.dtype)
    expected = torch.nn.functional.layer_norm(x, (4096,), w, b, 1e-5)
    torch.testing.assert_close(layernorm(x, w, b, 1e-5), expected, atol=1e-2, rtol=1e-2)
    ms = triton.testing.do_bench(lambda: layernorm(x, w, b, 1e-5))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
