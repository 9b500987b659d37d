"""Reference solution: residual add + RMSNorm in one Triton kernel, two outputs in one buffer.

    h = x + residual                       (stored: the next layer's residual stream)
    y = h / sqrt(mean(h^2) + eps) * weight  (of h as stored, i.e. rounded to the dtype)

The engine compares one returned tensor, so the two outputs live in one contiguous
(2, M, N) allocation: out[0] is h, out[1] is y. The kernel gets two pointers into it and
writes each half directly: no torch.stack, no extra pass.

Why it is fast: the op is memory-bound. Eager PyTorch runs two kernels: the add reads x and
residual and writes h, then the norm reads h again and writes y: 5 * M * N elements. Fused,
each row of x and residual is read once, h and y are written once, and the norm works on the
h still in registers: 4 * M * N elements (bytes model (4 * M * N + N) * itemsize), so the
ceiling is ~1.25x eager torch at equal bandwidth. Rows of up to MAX_FUSED_N columns stay in
registers (BLOCK_M rows per program for short rows, shrunk for small M so every SM has
work; contiguous rows give 16-byte loads and stores); longer rows take a two-loop kernel
whose second loop reads h back (just written: mostly an L2 hit). Launch shapes follow the
rmsnorm drill's tuned table (H100); decode batches of at most DECODE_MAX_M rows take more
warps (timed on the H200, see below).

Numerics: the add in float32, rounded once to the dtype for h; the sum of squares of the
rounded h in float32 (an fp16 value of 300 squares past fp16's largest value).
"""

import torch
import triton
import triton.language as tl

MAX_FUSED_N = 16384
# (BLOCK_N, bytes per element) -> (BLOCK_M, num_warps), from the rmsnorm drill's H100 tuning.
TUNED_LAUNCH = {
    (256, 2): (16, 16), (256, 4): (16, 16),
    (512, 2): (16, 16), (512, 4): (4, 4),
    (1024, 2): (2, 4), (1024, 4): (4, 4),
    (2048, 2): (2, 4), (2048, 4): (2, 4),
    (4096, 2): (1, 4), (4096, 4): (1, 8),
    (8192, 2): (1, 8), (8192, 4): (1, 8),
    (16384, 2): (1, 16), (16384, 4): (1, 16),
}
MIN_PROGRAMS = 128
# Decode batches (few rows, rows of 4096+): one program per row is all the GPU gets, so a row's
# latency is the kernel's time; 16 warps (8-16 elements a thread) finish a row sooner than 4-8.
# Timed on the H200 (bench/launch_tuning.py --what residual_rmsnorm, call 60), CUDA-graph replay,
# fp16: 1x4096 1.7 us against 2.2 on 4 warps, 32x4096 1.9 against 2.4, 256x8192 3.8 against 4.1
# on 8 warps (Liger-Kernel: 1.7, 1.8, 3.6). bf16: 0.1 us slower at 1-32 rows, 0.3 faster at 256 x 8192.
DECODE_MAX_M = 256
DECODE_WARPS = 16


@triton.jit
def residual_rmsnorm_rows_kernel(x_ptr, r_ptr, w_ptr, h_ptr, y_ptr, M, N,
                                 sxm, sxn, srm, srn, sw, eps,
                                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    col_mask = cols < N
    mask = (rows < M)[:, None] & col_mask[None, :]
    r64 = rows.to(tl.int64)[:, None]
    x = tl.load(x_ptr + r64 * sxm + cols[None, :] * sxn, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + r64 * srm + cols[None, :] * srn, mask=mask, other=0.0).to(tl.float32)
    h = (x + r).to(h_ptr.dtype.element_ty)
    out = r64 * N + cols[None, :]
    tl.store(h_ptr + out, h, mask=mask)
    hf = h.to(tl.float32)
    rstd = tl.rsqrt(tl.sum(hf * hf, axis=1) / N + eps)
    w = tl.load(w_ptr + cols * sw, mask=col_mask, other=0.0).to(tl.float32)
    y = hf * rstd[:, None] * w[None, :]
    tl.store(y_ptr + out, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def residual_rmsnorm_looped_kernel(x_ptr, r_ptr, w_ptr, h_ptr, y_ptr, N, sxm, sxn, srm, srn, sw,
                                   eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK_N], tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_ptr + row * sxm + cols * sxn, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(r_ptr + row * srm + cols * srn, mask=mask, other=0.0).to(tl.float32)
        h = (x + r).to(h_ptr.dtype.element_ty)
        tl.store(h_ptr + row * N + cols, h, mask=mask)
        hf = h.to(tl.float32)
        acc += hf * hf
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < N
        hf = tl.load(h_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols * sw, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * N + cols, (hf * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def launch_config(M: int, N: int, itemsize: int) -> tuple[int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps) for the fused kernel."""
    block_n = triton.next_power_of_2(N)
    block_m, num_warps = TUNED_LAUNCH.get((block_n, itemsize), (max(1, 4096 // block_n), 4))
    block_m = min(block_m, 16)
    while block_m > 1 and triton.cdiv(M, block_m) < MIN_PROGRAMS:
        block_m //= 2
        num_warps = max(4, min(num_warps, block_m * block_n // 256))
    if M <= DECODE_MAX_M and block_n >= 4096:
        block_m, num_warps = 1, DECODE_WARPS
    return block_m, block_n, num_warps


def residual_rmsnorm(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor,
                     eps: float) -> torch.Tensor:
    """out (2, M, N): out[0] = x + residual, out[1] = rmsnorm(out[0]) * weight."""
    assert x.ndim == 2 and residual.shape == x.shape, "x and residual must be (M, N)"
    M, N = x.shape
    out = torch.empty((2, M, N), dtype=x.dtype, device=x.device)
    h, y = out[0], out[1]
    args = (x, residual, weight, h, y)
    strides = (x.stride(0), x.stride(1), residual.stride(0), residual.stride(1), weight.stride(0))
    if N <= MAX_FUSED_N:
        block_m, block_n, num_warps = launch_config(M, N, x.element_size())
        residual_rmsnorm_rows_kernel[(triton.cdiv(M, block_m),)](
            *args, M, N, *strides, eps, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
    else:
        residual_rmsnorm_looped_kernel[(M,)](*args, N, *strides, eps, BLOCK_N=4096, num_warps=8)
    return out


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/residual_rmsnorm/solution.py
    x = torch.randn(4096, 8192, device="cuda", dtype=torch.bfloat16)
    r = torch.randn_like(x)
    w = torch.randn(8192, device="cuda", dtype=x.dtype)
    out = residual_rmsnorm(x, r, w, 1e-6)
    torch.testing.assert_close(out[0], x + r)
    torch.testing.assert_close(out[1], torch.nn.functional.rms_norm(x + r, (8192,), w, 1e-6),
                               atol=2e-2, rtol=2e-2)
    ms = triton.testing.do_bench(lambda: residual_rmsnorm(x, r, w, 1e-6))
    print(f"{4 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
