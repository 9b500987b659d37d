"""Reference solution: y = silu(g) * u straight from the gate-up projection, one Triton kernel.

The input gu is (M, 2H): the gate g is columns 0..H-1 and the up projection u is columns
H..2H-1 of the same rows. The split costs nothing: g and u are two pointers into gu,
H * stride(1) elements apart, so no copy is ever made and any strides work (padded rows,
a transposed view).

Why it is fast: SwiGLU is a handful of flops per element, so time is bytes. The eager
version (F.silu(g) * u) reads g, writes silu(g), reads silu(g) and u again and writes y:
5 * M * H elements moved. Fused, each program reads its tile of g and of u once and writes
y once: 3 * M * H elements (bytes model 3 * M * H * itemsize), so the ceiling is ~5/3 of
eager torch at equal bandwidth. Work per element is small (one exp2, one reciprocal, a few
multiplies, the converts): the kernel stays memory-bound in fp16/bf16.

Numerics: math in float32, rounded once to gu's dtype. With e = exp(-|g|), which lies in
(0, 1] and never overflows, sigmoid(g) = 1 / (1 + e) for g >= 0 and e / (1 + e) for g < 0:
both tails saturate cleanly (to 1 and to 0) and no inf appears anywhere. (The plain
1 / (1 + exp(-g)) also gives the right limits in IEEE arithmetic, passing through
exp(-g) = inf; the form exp(g) / (1 + exp(g)) is inf / inf = NaN for g > 88.7.)
Cost: one exp2, one reciprocal, an abs, a select and four multiplies per output.

Tiles: BLOCK_M rows x BLOCK_N output columns, int64 row offsets (8192 x 57344 elements of
gu pass 2^31 bytes). 4096 outputs per program over 16 warps (8 per thread), up to 4096
columns of one row: measured on the H200 (bench/launch_tuning.py,
bench/results/launch_tuning.md) against 8K-output tiles with 4-16 warps, 512-4096 columns
wide, this was the fastest or within 1% of it at every large shape (4096 x 4096: 29.2 ->
25.3 us, as fast as Liger-Kernel and torch.compile), where the earlier 8K outputs over
8 warps reached 0.87-0.92x of them. An approximate division in sigmoid timed the same as
the IEEE one there (bf16). When M is small the tile shrinks so a decode step (M = 1) still
spreads over every SM, with fewer warps for a smaller tile.

Large contiguous inputs (2^23+ outputs) take `swiglu_flat_kernel` instead: the output as
one flat range, 2048 values a program, the row and column of each from a division by the
constant H. At hidden 8192-16384 that was 4% faster on the H200 than the best tile. On a GPU
its exp2 and reciprocal are written as the single approximate instructions ex2.approx.ftz and
rcp.approx.ftz (inline PTX; relative error about 2^-22, far below a 16-bit output's rounding).
Triton compiles tl.exp2 to ex2.approx.ftz already, but `1.0 / d` to div.full.f32 and its
guards: in fp16 the plain form with 1024 outputs a program was 6-9% behind torch.compile at
2^25+ outputs (FLAT_BLOCK below).
"""

import os

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(gu_ptr, y_ptr, M, H, stride_m, stride_n, up_offset, stride_ym,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < H)[None, :]
    row_off = rows.to(tl.int64)[:, None] * stride_m
    g_ptrs = gu_ptr + row_off + cols.to(tl.int64)[None, :] * stride_n
    g = tl.load(g_ptrs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(g_ptrs + up_offset, mask=mask, other=0.0).to(tl.float32)   # the split: an offset
    # sigmoid from e = exp(-|g|) in (0, 1]: no exp ever overflows (exp(x) = 2^(x * log2(e))).
    e = tl.exp2(-tl.abs(g) * 1.4426950408889634)
    r = 1.0 / (1.0 + e)
    y = g * tl.where(g >= 0, r, e * r) * u
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cols[None, :],
             y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_flat_kernel(gu_ptr, y_ptr, total, H: tl.constexpr, BLOCK: tl.constexpr, EVEN: tl.constexpr,
                       WIDE: tl.constexpr, FAST: tl.constexpr = False):
    """Contiguous gu and y: the output as one flat range, BLOCK consecutive values a program
    (row i // H, column i % H; H a constant, so the division is a multiply and a shift).
    EVEN: total is a multiple of BLOCK, no masks. WIDE: 64-bit offsets (2 * total >= 2^31).
    FAST (compiled for an NVIDIA GPU): exp2 and the reciprocal as single approximate
    instructions (ex2.approx.ftz, rcp.approx.ftz; inline PTX, which the interpreter cannot run)."""
    pid = tl.program_id(0)
    if WIDE:
        pid = pid.to(tl.int64)
    i = pid * BLOCK + tl.arange(0, BLOCK)
    g_ptrs = gu_ptr + (i // H) * (2 * H) + i % H
    if EVEN:
        g = tl.load(g_ptrs).to(tl.float32)
        u = tl.load(g_ptrs + H).to(tl.float32)
    else:
        g = tl.load(g_ptrs, mask=i < total, other=0.0).to(tl.float32)
        u = tl.load(g_ptrs + H, mask=i < total, other=0.0).to(tl.float32)
    if FAST:
        e = tl.inline_asm_elementwise("ex2.approx.ftz.f32 $0, $1;", "=r,r", [-tl.abs(g) * 1.4426950408889634],
                                      dtype=tl.float32, is_pure=True, pack=1)
        r = tl.inline_asm_elementwise("rcp.approx.ftz.f32 $0, $1;", "=r,r", [1.0 + e],
                                      dtype=tl.float32, is_pure=True, pack=1)
    else:
        e = tl.exp2(-tl.abs(g) * 1.4426950408889634)
        r = 1.0 / (1.0 + e)
    y = (g * tl.where(g >= 0, r, e * r) * u).to(y_ptr.dtype.element_ty)
    if EVEN:
        tl.store(y_ptr + i, y)
    else:
        tl.store(y_ptr + i, y, mask=i < total)


ELEMS_PER_PROGRAM = 4096
MIN_PROGRAMS = 264          # two per SM on an H100 (132 SMs)
# Contiguous inputs of 2^23+ outputs: the flat kernel, as torch.compile's Inductor launches a
# pointwise op (bench/inductor_code.py). On the H200 it took 4096 x 16384 bf16 from 97.0 to 92.8 us
# and 16384 x 16384 from 382.2 to 366.5 (0.95-0.96x torch.compile -> 1.00x; bench/inductor_like.py,
# call 27). In fp16 that kernel (1024 outputs on 4 warps, plain exp2 and division) stayed at 0.91-0.94x
# torch.compile and Liger-Kernel (call 66: 16384 x 8192 198.6 us against 184.0); with the approximate
# exp2 and reciprocal and 2048 outputs a program it took 183.9 (4096 x 16384: 102.1 -> 92.7,
# 4096 x 4096: 27.6 -> 25.4), and bf16 stayed where it was (183.3 -> 183.6; bench/launch_tuning.py
# --what swiglu, call 67, engine protocol). Compiled for sm_90 by Triton 3.6 the flat kernel takes
# 23.4 SASS instructions an output with the approximate forms, 28.3 without, in fp16 and bf16 alike.
# float32 (4 bytes a value): 1024 outputs a program on 8 warps, 16 bytes a thread per load as in the
# two-byte launch: 4096 x 4096 49.1 -> 46.8 us, 16384 x 4096 187.7 -> 183.6 (bench/launch_tuning.py
# --what swiglu --dtype float32, call 78; torch.compile 47.2 and 184.8, call 77).
FLAT_MIN_OUTPUTS = 1 << 23
FLAT_LAUNCH = {2: (2048, 4), 4: (1024, 8)}     # bytes a value -> (BLOCK outputs a program, num_warps)
FLAT_BLOCK, FLAT_WARPS = FLAT_LAUNCH[2]         # the two-byte launch, by the names it had before float32's
INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


def launch_shape(M: int, H: int) -> tuple[int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps) for an (M, H) output."""
    block_n = min(triton.next_power_of_2(H), ELEMS_PER_PROGRAM)
    block_m = max(1, min(ELEMS_PER_PROGRAM // block_n, triton.next_power_of_2(M)))
    programs = lambda: triton.cdiv(M, block_m) * triton.cdiv(H, block_n)
    while block_m > 1 and programs() < MIN_PROGRAMS:
        block_m //= 2
    while block_n > 128 and programs() < MIN_PROGRAMS:
        block_n //= 2
    num_warps = min(16, max(4, block_m * block_n // 256))      # 8 outputs a thread, 4-16 warps
    return block_m, block_n, num_warps


def swiglu(gu: torch.Tensor) -> torch.Tensor:
    """Return silu(gu[:, :H]) * gu[:, H:] as a new contiguous (M, H) tensor of gu's dtype."""
    assert gu.ndim == 2 and gu.shape[1] % 2 == 0, "gu must be (M, 2H)"
    M, H = gu.shape[0], gu.shape[1] // 2
    y = torch.empty((M, H), dtype=gu.dtype, device=gu.device)
    if gu.is_contiguous() and M * H >= FLAT_MIN_OUTPUTS:
        total = M * H
        block, warps = FLAT_LAUNCH[2 if gu.element_size() <= 2 else 4]
        swiglu_flat_kernel[(triton.cdiv(total, block),)](
            gu, y, total, H=H, BLOCK=block, EVEN=total % block == 0, WIDE=2 * total >= 2**31,
            FAST=not INTERPRET and gu.is_cuda and torch.version.hip is None, num_warps=warps)
        return y
    block_m, block_n, num_warps = launch_shape(M, H)
    grid = (triton.cdiv(M, block_m), triton.cdiv(H, block_n))
    up_offset = H * gu.stride(1)          # u starts H columns after g: a view, not a copy
    swiglu_kernel[grid](gu, y, M, H, gu.stride(0), gu.stride(1), up_offset, y.stride(0),
                        BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
    return y


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/swiglu/solution.py
    import torch.nn.functional as F
    gu = torch.randn(4096, 2 * 14336, device="cuda", dtype=torch.bfloat16)
    g, u = gu.chunk(2, dim=-1)
    torch.testing.assert_close(swiglu(gu), F.silu(g) * u, atol=1e-2, rtol=2e-2)
    ms = triton.testing.do_bench(lambda: swiglu(gu))
    print(f"{3 * g.numel() * gu.element_size() / ms * 1e-6:.0f} GB/s")
