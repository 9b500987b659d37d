"""Reference solution: int8 weight-only quantized matmul, dequantized inside the kernel.

y[m, n] = sum_k x[m, k] * (W[k, n] * scale[n]) = scale[n] * sum_k x[m, k] * W[k, n]

x fp16/bf16 [M, K], W int8 [K, N], scale [N] in x's dtype. The scale is per output
channel, so it factors out of the K sum: the kernel converts each int8 tile of W to x's
dtype (exact: every int8 fits in fp16's and bf16's mantissa), runs tl.dot with an fp32
accumulator, and multiplies the accumulator by scale[n] once in the epilogue, instead of
K times in the inner loop.

Bytes/flops model: 2*M*N*K flops over (M*K + N + M*N) * itemsize + K*N bytes. This is a
decode-time kernel: at M = 1..16 the weights dominate the bytes and the intensity is
~2*M flop/byte (an H100 needs ~295 to be compute-bound), so it is memory-bound and the
metric is GB/s: the whole point of int8 weights is to halve the bytes of fp16 weights.
Dequantizing first (what the torch baseline does) writes and re-reads an fp16 copy of W:
3x the weight traffic. At large M (prefill) the kernel becomes a compute-bound fp16 GEMM.

Tiles: BLOCK_M = 16 (the smallest tl.dot tile) for decode, larger for prefill; the
autotuner picks BLOCK_N / BLOCK_K so that N / BLOCK_N programs still fill the SMs.
(A split-K variant would fill them better at M = 1 with N = 4096: an exercise.)
"""

import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


def _configs():
    if INTERPRET:
        return [triton.Config({"BLOCK_M": 16, "BLOCK_N": 32, "BLOCK_K": 32, "GROUP_M": 4},
                              num_warps=4, num_stages=1)]
    cfg = lambda bm, bn, bk, w, s: triton.Config(  # noqa: E731
        {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8}, num_warps=w, num_stages=s)
    return [
        # decode (small M): narrow N tiles so N / BLOCK_N programs cover 132 SMs
        cfg(16, 32, 256, 4, 4), cfg(16, 64, 256, 4, 4), cfg(16, 64, 128, 4, 5),
        cfg(16, 128, 128, 4, 4), cfg(32, 64, 128, 4, 4),
        # prefill (large M): GEMM tiles
        cfg(64, 128, 64, 4, 4), cfg(128, 128, 64, 8, 3), cfg(128, 256, 64, 8, 3),
    ]


@triton.autotune(configs=_configs(), key=["M", "N", "K"])
@triton.jit
def int8_wo_matmul_kernel(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K,
                          stride_xm, stride_xk, stride_wk, stride_wn, stride_ym, stride_yn,
                          UPCAST: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    first_pid_m = (pid // num_pid_in_group) * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        x = tl.load(x_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        w = tl.load(w_ptrs, mask=offs_k[:, None] < k_left, other=0)
        if UPCAST:  # Triton's CPU interpreter mis-multiplies bfloat16 dots; never on a GPU
            x = x.to(tl.float32)
        acc = tl.dot(x, w.to(x.dtype), acc)      # dequantize in registers: int8 -> x's dtype
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk

    scale = tl.load(s_ptr + offs_n).to(tl.float32)    # per output channel, once per tile
    y = (acc * scale[None, :]).to(y_ptr.dtype.element_ty)
    offs_ym = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_yn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(y_ptr + offs_ym[:, None] * stride_ym + offs_yn[None, :] * stride_yn, y,
             mask=(offs_ym[:, None] < M) & (offs_yn[None, :] < N))


def int8_wo_matmul(x: torch.Tensor, w: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """y = x @ (w * scale): x [M, K] float, w int8 [K, N] (any strides), scale [N]."""
    assert x.ndim == 2 and w.ndim == 2 and x.shape[1] == w.shape[0] and w.dtype == torch.int8
    assert scale.shape == (w.shape[1],)
    M, K = x.shape
    N = w.shape[1]
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)  # noqa: E731
    int8_wo_matmul_kernel[grid](x, w, scale, y, M, N, K, x.stride(0), x.stride(1),
                                w.stride(0), w.stride(1), y.stride(0), y.stride(1),
                                UPCAST=INTERPRET and x.dtype == torch.bfloat16)
    return y


if __name__ == "__main__":
    for M in (1, 16, 4096):
        x = torch.randn(M, 4096, device="cuda", dtype=torch.float16)
        w = torch.randint(-128, 128, (4096, 4096), device="cuda", dtype=torch.int8)
        s = torch.rand(4096, device="cuda", dtype=torch.float16) / 4096
        torch.testing.assert_close(int8_wo_matmul(x, w, s), x @ (w.half() * s), atol=1e-2, rtol=1e-2)
        ms = triton.testing.do_bench(lambda: int8_wo_matmul(x, w, s))
        print(f"M={M}: {(M * 4096 * 4 + 4096 * 4096) / ms * 1e-6:.0f} GB/s")
