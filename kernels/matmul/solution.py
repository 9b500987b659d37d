"""Reference solution: C = A @ B in Triton, fp16/bf16 in, fp32 accumulate (tl.dot).

Read like Triton's 03-matrix-multiplication tutorial. Each program computes one
BLOCK_M x BLOCK_N tile of C: it walks K in BLOCK_K steps, loading a tile of A and a tile
of B and accumulating `tl.dot` (tensor cores) into a float32 accumulator held in
registers; the tile is cast to C's dtype once, at the end.

Bytes/flops model: 2*M*N*K flops over (M*K + K*N + M*N) * itemsize bytes. For 4096^3
fp16 that is 137 GFLOP over 100 MB: ~1365 flop/byte, far above an H100's ridge point
(~990 TFLOP/s dense fp16 / 3.35 TB/s ~ 295 flop/byte), so the kernel is compute-bound and
the metric is TFLOP/s. The tiles themselves are re-read from L2: with a plain row-major
launch order, programs running together share one row of A but touch N/BLOCK_N different
tiles of B. The grouped ("super-grouping") order below launches GROUP_M rows of tiles
column by column, so the programs in flight reuse both A rows and B columns from L2.

Autotuned on the GPU over H100-friendly tiles (128x256x64 with 8 warps and 3 stages is
usually the winner at 4096^3); in Triton's interpreter a single small config is used so
the CPU checks stay quick. float32 inputs go through tl.dot's default TF32 path on the
GPU (like torch with allow_tf32), hence the drill's looser float32 tolerance.
"""

import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


def _configs():
    if INTERPRET:
        return [triton.Config({"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32, "GROUP_M": 4},
                              num_warps=4, num_stages=1)]
    cfg = lambda bm, bn, bk, g, w, s: triton.Config(  # noqa: E731
        {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": g}, num_warps=w, num_stages=s)
    return [
        cfg(128, 256, 64, 8, 8, 3),
        cfg(256, 128, 64, 8, 8, 3),
        cfg(128, 128, 64, 8, 8, 4),
        cfg(128, 128, 64, 8, 4, 4),
        cfg(128, 64, 64, 8, 4, 4),
        cfg(64, 128, 64, 8, 4, 4),
        cfg(64, 64, 64, 8, 4, 5),
        cfg(32, 64, 32, 8, 2, 5),
    ]


@triton.autotune(configs=_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr, UPCAST: tl.constexpr):
    # Grouped launch order: program ids walk down GROUP_M tile-rows before moving right.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # Rows/cols past the edge wrap around (% M, % N): every load stays in bounds without a
    # mask on the M/N edges, and only the store is masked.
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K          # the K tail is masked with zeros (0 * x adds nothing)
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        if UPCAST:  # Triton's CPU interpreter mis-multiplies bfloat16 dots; never on a GPU
            a, b = a.to(tl.float32), b.to(tl.float32)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """C = a @ b for 2-D a [M, K], b [K, N] of one dtype; any strides; returns C [M, N]."""
    assert a.ndim == 2 and b.ndim == 2 and a.shape[1] == b.shape[0], "shape mismatch"
    assert a.dtype == b.dtype, "a and b must share a dtype"
    M, K = a.shape
    N = b.shape[1]
    # Offsets are 32-bit: fine below 2**31 elements per operand (4096^3 is 16.7M each).
    assert max(a.numel(), b.numel(), M * N) < 2**31
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)  # noqa: E731
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), UPCAST=INTERPRET and a.dtype == torch.bfloat16)
    return c


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/matmul/solution.py
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    b = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(matmul(a, b), a @ b, atol=1e-1, rtol=1e-2)
    ms = triton.testing.do_bench(lambda: matmul(a, b))
    print(f"{2 * 4096**3 / ms * 1e-9:.0f} TFLOP/s")
