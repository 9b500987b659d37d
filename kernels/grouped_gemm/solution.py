"""Reference solution: grouped GEMM for MoE experts, Triton, one persistent launch.

y[offsets[e]:offsets[e+1]] = x[offsets[e]:offsets[e+1]] @ w[e] for every expert e: E
matmuls of different heights (the rows routed to each expert), the same N and K, one
launch, the group sizes only on the device.

How the work is scheduled: the output tiles of all experts form one list, expert by
expert (expert e has cdiv(rows_e, BLOCK_M) * cdiv(N, BLOCK_N) tiles, empty experts none).
A fixed grid of about two programs per SM walks that list: program p takes tiles p,
p + P, p + 2P, ... It finds which expert a tile belongs to by walking the E offsets once
(E <= a few hundred scalar loads, from L1), so the host never reads `offsets` (no
device-to-host sync, unlike a loop of torch.mm, which needs every group's size on the
CPU) and empty experts cost nothing.

Inside a tile it is the matmul drill's loop: BLOCK_K slices of x's rows and of w[e]'s
columns, tl.dot into a float32 accumulator, one rounding to y's dtype at the store. Rows
past the expert's end are masked (they belong to the next expert, or lie past M).

Bytes / flops: 2*M*N*K flops; x and every weight read once at best, y written once:
compute-bound at MoE sizes (the metric is TFLOP/s against the device's matmul peak).

What makes it fast, and what is left:
- One launch for all experts; tensor-core tiles of 128 x 128 x 64 with 3 pipeline
  stages, 8 warps (first guesses, untuned: not yet run on a GPU).
- Tiles of one expert are consecutive in the list, so programs running at the same time
  share that expert's weight tiles in L2.
- Not done: TMA descriptors / warp specialisation (Hopper), a swizzled order inside an
  expert, and splitting the tile list by cost rather than by count.
"""

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
            row_ok = rows < hi
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


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/grouped_gemm/solution.py
    import importlib.util
    import pathlib

    loader = importlib.util.spec_from_file_location("gg_spec", pathlib.Path(__file__).with_name("spec.py"))
    spec = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(spec)
    for shape in ([8192, 14336, 4096, 8], [32768, 1536, 2048, 128]):
        case = {"shape": shape, "dtype": "bfloat16"}
        inputs = spec.make_inputs(case, torch.Generator().manual_seed(0), "cuda")
        torch.testing.assert_close(grouped_gemm(*inputs).double(), spec.reference(*inputs), atol=1.6e-2, rtol=1.6e-2)
        ms = triton.testing.do_bench(lambda: grouped_gemm(*inputs))
        base = triton.testing.do_bench(lambda: spec.baseline(*inputs))
        print(f"{shape}: {spec.flops(case) / ms * 1e-9:.0f} TFLOP/s, torch loop {base / ms:.2f}x slower")
