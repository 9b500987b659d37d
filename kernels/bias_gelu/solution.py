"""Reference solution: y = gelu(x + bias), erf GELU, fused in one Triton kernel.

Unfused, PyTorch reads x, writes z = x + bias, reads z again and writes y: 4 passes over
M*N elements. Fused, the kernel reads x once and writes y once (bytes model:
(2*M*N + N) * itemsize). The win over torch is the fusion.

GELU form: gelu(z) = 0.5 * z * (1 + erf(z / sqrt(2))), what F.gelu computes by default
(approximate='none'). The tanh form differs by up to ~5e-4 and fails the float32 tolerance.

Why not `tl.math.erf`? In float16/bfloat16 the kernel moves only 4 bytes per element, so
an H100 streaming at ~3 TB/s must finish ~3 elements per clock per SM: about 40
instructions per element fill the SM's issue slots (4 schedulers x 32 lanes per clock).
libdevice's erff plus loads, converts and address math is past that, and the kernel
topped out at ~82% of copy bandwidth, instruction-bound rather than memory-bound
(float32, at half the elements per byte, reached 93-97%). Abramowitz & Stegun 7.1.26
gives erfc(a) for a >= 0 as a degree-5 polynomial in t = 1/(1 + p*a) times exp(-a^2),
absolute error < 1.5e-7: one reciprocal, one exp2, five FMAs. It is exact to the float32
tolerance (worst case 2% of it), and using erfc directly for negative z avoids the
cancellation in 1 + erf(u) when erf(u) is close to -1.

2-D tiles: BLOCK_M rows x BLOCK_N columns; the bias slice for the tile's columns is
loaded once per program and broadcast over its rows. Math in float32, rounded once.
Launch shapes per (N, itemsize) came from a sweep on an H100 (bench/catalogue_tuning.py).
Large contiguous float32 inputs run `bias_gelu_flat_kernel` instead: x and y as one flat range,
each value's bias column i % N, measured faster on the H200 (FLAT_MIN below).
"""

import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


@triton.jit
def gelu_erf(z, FAST: tl.constexpr = False):
    """0.5 * z * (1 + erf(z / sqrt(2))) with A&S 7.1.26 for erfc, in float32.

    FAST (on a GPU): the reciprocal and exp2 as single approximate instructions (rcp.approx.ftz,
    ex2.approx.ftz). Triton's `1.0 / d` is div.full.f32 and its exp2 is ex2.approx.f32 without
    ftz, each with extra instructions to handle subnormals, which cannot occur here (d >= 1; an
    exp2 result below 2^-126 is an erfc below 1e-38, flushed to 0). 29 -> 22.4 SASS instructions
    an element for bf16 on sm_90. Triton's interpreter has no inline PTX: it takes the plain forms."""
    u = z * 0.7071067811865476
    a = tl.abs(u)
    d = 1.0 + 0.3275911 * a
    if FAST:
        t = tl.inline_asm_elementwise("rcp.approx.ftz.f32 $0, $1;", "=r,r", [d],
                                      dtype=tl.float32, is_pure=True, pack=1)
    else:
        t = 1.0 / d
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
                                                     + t * (-1.453152027 + t * 1.061405429))))
    if FAST:
        e = tl.inline_asm_elementwise("ex2.approx.ftz.f32 $0, $1;", "=r,r", [-(a * a) * 1.4426950408889634],
                                      dtype=tl.float32, is_pure=True, pack=1)
    else:
        e = tl.exp2(-(a * a) * 1.4426950408889634)
    q = poly * e                                           # erfc(|u|)
    return 0.5 * z * tl.where(u >= 0, 2.0 - q, q)        # 1 + erf(u) = 2 - erfc(u) = erfc(-u)


@triton.jit
def bias_gelu_kernel(x_ptr, b_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, LIBDEVICE_ERF: tl.constexpr,
                     FAST: tl.constexpr = False):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    rows64 = rows.to(tl.int64)[:, None]
    x = tl.load(x_ptr + rows64 * stride_xm + cols[None, :] * stride_xn, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=cols < N, other=0.0)
    z = x.to(tl.float32) + b.to(tl.float32)[None, :]
    if LIBDEVICE_ERF:   # the plain form, kept for comparison (bench/catalogue_tuning.py)
        y = 0.5 * z * (1.0 + tl.math.erf(z * 0.7071067811865476))
    else:
        y = gelu_erf(z, FAST)
    tl.store(y_ptr + rows64 * stride_ym + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bias_gelu_flat_kernel(x_ptr, b_ptr, y_ptr, total, N: tl.constexpr, BLOCK: tl.constexpr, EVEN: tl.constexpr,
                          WIDE: tl.constexpr, FAST: tl.constexpr = False):
    """Contiguous x and y as one flat range, BLOCK values a program, as torch.compile launches a
    pointwise op: value i's bias is column i % N (N compiled in: a multiply and a shift). EVEN:
    total is a multiple of BLOCK, no masks; WIDE: 64-bit offsets (total >= 2^31)."""
    pid = tl.program_id(0)
    if WIDE:
        pid = pid.to(tl.int64)
    i = pid * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + i)
        b = tl.load(b_ptr + i % N, eviction_policy="evict_last")
    else:
        x = tl.load(x_ptr + i, mask=i < total, other=0.0)
        b = tl.load(b_ptr + i % N, mask=i < total, other=0.0, eviction_policy="evict_last")
    y = gelu_erf(x.to(tl.float32) + b.to(tl.float32), FAST).to(y_ptr.dtype.element_ty)
    if EVEN:
        tl.store(y_ptr + i, y)
    else:
        tl.store(y_ptr + i, y, mask=i < total)


# (BLOCK_N cap, elements per program, num_warps) by itemsize, from the H100 sweep; float32 from
# the H200 (bench/launch_tuning.py --what bias_gelu --dtype float32, call 78): one row of 1024 on
# 4 warps took 4096 x 4096 from 36.3 to 34.7 us and 16384 x 4096 from 136.1 to 133.2 (the H100's
# 4 x 2048 on 8 warps before; torch.compile 33.8 and 127.1, call 77).
LAUNCH = {2: (1024, 8192, 8), 4: (1024, 1024, 4)}
# Contiguous float32 inputs of 2^24+ values take the flat kernel instead, 1024 values a program on
# 8 warps: 4096 x 4096 34.6 -> 33.7 us, 4096 x 8192 67.9 -> 64.4, 16384 x 4096 133.3 -> 126.6
# (bench/launch_tuning.py --what bias_gelu, call 80; torch.compile 33.8, 65.3, 127.2 in call 77,
# whose pointwise kernel is the same launch, 1024 values on 4 warps). In bf16 the flat kernel was
# within 2.5% of the tiles at 16384 x 4096 (67.1 against 68.8, 2048 on 2 warps): not taken.
FLAT_MIN = {4: 1 << 24}          # bytes a value -> fewest values for the flat kernel
FLAT_LAUNCH = {4: (1024, 8)}     # bytes a value -> (BLOCK, num_warps)


MIN_PROGRAMS = 264          # two per SM on an H100 (132 SMs)


def launch_shape(M: int, N: int, itemsize: int) -> tuple[int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps) for an (M, N) input of this itemsize.

    Few rows (decode: M of 1-128) would give a handful of 8K-element programs, and GELU's
    erf is enough arithmetic that one SM working through 8K elements is what the time is:
    on the H200 at 16 x 1024 that tile took 5.7 us where 64-128 programs of 128-256
    elements took 4.3-4.4 (bench/launch_tuning.py, bench/results/launch_tuning.md). So the
    tile shrinks, rows first, until there are two programs per SM, with 4+ elements a thread."""
    cap, elems, warps = LAUNCH.get(itemsize, LAUNCH[4])
    block_n = min(triton.next_power_of_2(N), cap)
    block_m = max(1, min(elems // block_n, triton.next_power_of_2(M)))
    programs = lambda: triton.cdiv(M, block_m) * triton.cdiv(N, block_n)  # noqa: E731
    while block_m > 1 and programs() < MIN_PROGRAMS:
        block_m //= 2
    while block_n > 128 and programs() < MIN_PROGRAMS:
        block_n //= 2
    return block_m, block_n, max(1, min(warps, block_m * block_n // 128))


def bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """Return gelu(x + bias) (erf form) as a new (M, N) tensor of x's dtype."""
    assert x.ndim == 2 and bias.shape == (x.shape[1],), "x (M, N) and bias (N,)"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    fast = not INTERPRET and x.is_cuda and torch.version.hip is None
    itemsize = x.element_size()
    if x.is_contiguous() and M * N >= FLAT_MIN.get(itemsize, 1 << 62):
        block, warps = FLAT_LAUNCH[itemsize]
        total = M * N
        bias_gelu_flat_kernel[(triton.cdiv(total, block),)](x, bias, y, total, N=N, BLOCK=block,
                                                           EVEN=total % block == 0, WIDE=total >= 2**31,
                                                           FAST=fast, num_warps=warps)
        return y
    block_m, block_n, warps = launch_shape(M, N, itemsize)
    grid = (triton.cdiv(M, block_m), triton.cdiv(N, block_n))
    bias_gelu_kernel[grid](x, bias, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                           BLOCK_M=block_m, BLOCK_N=block_n, LIBDEVICE_ERF=False, FAST=fast,
                           num_warps=warps)
    return y


if __name__ == "__main__":
    import torch.nn.functional as F
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
    b = torch.randn(8192, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(bias_gelu(x, b), F.gelu(x + b), atol=2e-3, rtol=2e-3)
    ms = triton.testing.do_bench(lambda: bias_gelu(x, b))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
