"""Reference solution: y = gelu(x + bias), exact (erf) GELU, fused in one Triton kernel.

Unfused, PyTorch reads x, writes z = x + bias, reads z again and writes y: 4 passes over
M*N elements. Fused, the kernel reads x once and writes y once (bytes model:
(2*M*N + N) * itemsize), and the ~8 flops per element are free: at ~4 flop/byte in fp16
the kernel is memory-bound by two orders of magnitude on an H100 (ridge ~295 flop/byte
for tensor cores, ~20 for plain fp32 FMA). The win over torch is the fusion.

GELU form: exact, gelu(z) = 0.5 * z * (1 + erf(z / sqrt(2))), what F.gelu computes by
default (approximate='none'). The tanh form 0.5*z*(1 + tanh(sqrt(2/pi)*(z + 0.044715 z^3)))
differs by up to ~5e-4 and would fail the float32 tolerance.

2-D tiles: BLOCK_M rows x BLOCK_N columns; the bias slice for the tile's columns is
loaded once per program and broadcast over its rows. Math in float32, rounded once.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def bias_gelu_kernel(x_ptr, b_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    rows64 = rows.to(tl.int64)[:, None]
    x = tl.load(x_ptr + rows64 * stride_xm + cols[None, :] * stride_xn, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=cols < N, other=0.0)
    z = x.to(tl.float32) + b.to(tl.float32)[None, :]
    y = 0.5 * z * (1.0 + tl.math.erf(z * 0.7071067811865476))
    tl.store(y_ptr + rows64 * stride_ym + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


def bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """Return gelu(x + bias) (erf form) as a new (M, N) tensor of x's dtype."""
    assert x.ndim == 2 and bias.shape == (x.shape[1],), "x (M, N) and bias (N,)"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    block_n = min(triton.next_power_of_2(N), 1024)
    block_m = max(1, min(4096 // block_n, triton.next_power_of_2(M)))
    grid = (triton.cdiv(M, block_m), triton.cdiv(N, block_n))
    bias_gelu_kernel[grid](x, bias, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                           BLOCK_M=block_m, BLOCK_N=block_n, num_warps=8)
    return y


if __name__ == "__main__":
    import torch.nn.functional as F
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
    b = torch.randn(8192, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(bias_gelu(x, b), F.gelu(x + b), atol=2e-3, rtol=2e-3)
    ms = triton.testing.do_bench(lambda: bias_gelu(x, b))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
