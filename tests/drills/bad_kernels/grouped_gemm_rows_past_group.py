"""grouped_gemm (the reference solution) with one change: a tile masks its rows to M instead
of to its expert's end, so the last tile of an expert writes x @ w[e] over the first rows of
the next expert. Right only when every expert but the last is a multiple of BLOCK_M rows."""

import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"
PROGRAMS_PER_SM = 2


@triton.jit
def grouped_gemm_kernel(x_ptr, w_ptr, y_ptr, off_ptr, E, N, K,
                        stride_xm, stride_xk, stride_we, stride_wk, stride_wn, stride_ym,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        UPCAST: tl.constexpr):
    tile = tl.program_id(0)
    step = tl.num_programs(0)
    n_tiles_n = tl.cdiv(N, BLOCK_N)
    seen = 0                                  # tiles of the experts before e
    w_e = w_ptr                               # w[e] (64-bit pointer arithmetic)
    for e in range(0, E):
        lo = tl.load(off_ptr + e)
        hi = tl.load(off_ptr + e + 1)
        tiles_e = tl.cdiv(hi - lo, BLOCK_M) * n_tiles_n
        while tile < seen + tiles_e:          # this program's tiles inside expert e
            local = tile - seen
            tm = local // n_tiles_n
            tn = local % n_tiles_n
            rows = lo + tm * BLOCK_M + tl.arange(0, BLOCK_M)
            cols = tn * BLOCK_N + tl.arange(0, BLOCK_N)
            row_ok = rows < tl.load(off_ptr + E)   # WRONG: masks to M, not to the expert's end
            col_ok = cols < N
            offs_k = tl.arange(0, BLOCK_K)
            x_ptrs = x_ptr + rows.to(tl.int64)[:, None] * stride_xm + offs_k[None, :] * stride_xk
            w_ptrs = w_e + offs_k[:, None] * stride_wk + cols[None, :] * stride_wn
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k0 in range(0, K, BLOCK_K):
                k_ok = offs_k < K - k0
                a = tl.load(x_ptrs, mask=row_ok[:, None] & k_ok[None, :], other=0.0)
                b = tl.load(w_ptrs, mask=k_ok[:, None] & col_ok[None, :], other=0.0)
                if UPCAST:   # Triton's CPU interpreter mis-multiplies bfloat16 dots; never on a GPU
                    a, b = a.to(tl.float32), b.to(tl.float32)
                acc = tl.dot(a, b, acc)
                x_ptrs += BLOCK_K * stride_xk
                w_ptrs += BLOCK_K * stride_wk
            tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cols[None, :],
                     acc.to(y_ptr.dtype.element_ty), mask=row_ok[:, None] & col_ok[None, :])
            tile += step
        seen += tiles_e
        w_e += stride_we


_SM_COUNT = {}


def _sm_count(device: torch.device) -> int:
    if INTERPRET or device.type != "cuda":
        return 2          # a few programs in the interpreter: each walks several tiles
    index = device.index if device.index is not None else torch.cuda.current_device()
    if index not in _SM_COUNT:
        _SM_COUNT[index] = torch.cuda.get_device_properties(index).multi_processor_count
    return _SM_COUNT[index]


def grouped_gemm(x: torch.Tensor, w: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """y[rows of e] = x[rows of e] @ w[e]; returns a new [M, N] tensor of x's dtype."""
    M, K = x.shape
    E, Kw, N = w.shape
    assert K == Kw and x.dtype == w.dtype and offsets.dtype == torch.int32 and offsets.numel() == E + 1
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    if INTERPRET:
        bm, bn, bk, warps, stages = 32, 32, 32, 4, 1
    else:
        bm, bn, bk, warps, stages = 128, 128, 64, 8, 3
    most_tiles = (triton.cdiv(M, bm) + E) * triton.cdiv(N, bn)   # >= the real count, no sync
    grid = (max(1, min(most_tiles, PROGRAMS_PER_SM * _sm_count(x.device))),)
    grouped_gemm_kernel[grid](
        x, w, y, offsets, E, N, K, x.stride(0), x.stride(1), w.stride(0), w.stride(1), w.stride(2),
        y.stride(0), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
        UPCAST=INTERPRET and x.dtype == torch.bfloat16, num_warps=warps, num_stages=stages)
    return y
