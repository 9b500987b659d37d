"""Reference solution: per-token (row-wise) dynamic FP8 e4m3 quantisation, one Triton kernel.

For each row i of x (M, N): s = max(amax_i / 448, 1 / (448 * 512)) and
q = round_to_e4m3(clamp(x / s, -448, 448)) as torch.float8_e4m3fn.

Why it is fast: quantisation is a row reduction followed by an elementwise map, so time is
bytes: read x once (2 or 4 bytes an element), write q once (1 byte). One program owns a
row and keeps it in registers between the amax and the scaling, so x is read from memory
exactly once for hidden sizes up to 16384 (BLOCK up to 16384 elements, 16 warps: 32
elements a thread in fp32 registers, 16-byte loads of bf16/fp16). Longer rows fall back to
two passes over the row, the second reading it back from L2 (see TWO_PASS: eviction hints
for two-byte rows, fewer rows in flight for float32). Rows are independent: M programs, a
few thousand tokens fill an H100 many times over; for decode batches (M of 1 to 16) the kernel is launch-bound whatever one does.

Rounding: on an sm_89+ NVIDIA GPU the value is clamped to +-448 and cast: `.to(tl.float8e4nv)`
is one cvt.rn.satfinite instruction (round to nearest even, e4m3 subnormals kept). Triton's CPU
interpreter rounds ties away from zero, flushes e4m3 subnormals and wraps values past 448, so
there (and on other GPUs) the solution rounds to the e4m3 grid itself in float32 with the
add-and-subtract trick ((v + c) - c with c = 1.5 * 2^23 * ulp(v), ulp floored at the subnormal
step 2^-9; float32 addition rounds to nearest even), clamps, and casts the exact grid value.
The two forms give the same value for every float32 in 2^-12..2^10 on an H200
(bench/fp8_cast_check.py, call 65: 369M values); they differ only in the sign of a zero (a
negative value that rounds to 0 becomes -0 with the cast, as torch's own cast gives, and +0
with the trick). The trick costs 6 SASS instructions an element (the one-pass kernel: 15.2
against 9.2, Triton 3.6 for sm_90), and with the row read once that was time: on the H200, call 65,
bench/launch_tuning.py --what fp8_quant, engine protocol, bf16: 8192 x 28672 209.0 -> 177.9 us
(93% of copy bandwidth, from 78%), 4096 x 14336 54.8 -> 47.0, 16384 x 8192 96.4 -> 93.1.
"""

import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"

FP8_MAX = 448.0
MIN_SCALE = 1.0 / (448.0 * 512.0)


@triton.jit
def _to_e4m3_grid(v):
    """v rounded to nearest even on the e4m3 grid (subnormal step 2^-9), clamped to +-448."""
    e = (tl.abs(v).to(tl.int32, bitcast=True) >> 23) & 0xFF
    ulp = ((tl.maximum(e, 121) - 3) << 23).to(tl.float32, bitcast=True)   # 121: exponent of 2^-6
    c = ulp * 12582912.0                                                   # 1.5 * 2^23 ulps
    r = (v + c) - c
    return tl.minimum(tl.maximum(r, -448.0), 448.0)


@triton.jit
def _to_e4m3(v, HW_CVT: tl.constexpr):
    """v clamped to +-448 and rounded to e4m3, as the output's element type. HW_CVT: the GPU's
    own cast (sm_89+); otherwise the grid rounding above, which any backend does right."""
    if HW_CVT:
        return tl.minimum(tl.maximum(v, -448.0), 448.0).to(tl.float8e4nv)
    return _to_e4m3_grid(v).to(tl.float8e4nv)


@triton.jit
def fp8_quant_kernel(x_ptr, q_ptr, N, stride_m, stride_n, ONE_PASS: tl.constexpr, BLOCK: tl.constexpr,
                     HW_CVT: tl.constexpr = False, HINTS: tl.constexpr = True):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_m
    q_row = q_ptr + row * N
    cols = tl.arange(0, BLOCK)
    if ONE_PASS:
        mask = cols < N
        x = tl.load(x_row + cols * stride_n, mask=mask, other=0.0).to(tl.float32)
        amax = tl.max(tl.abs(x), axis=0)
        inv = 1.0 / tl.maximum(amax / 448.0, 1.0 / (448.0 * 512.0))
        tl.store(q_row + cols, _to_e4m3(x * inv, HW_CVT), mask=mask)
    else:
        # HINTS: the first pass asks L2 to keep the row (evict_last), the second to drop it once
        # read (evict_first), so the second pass reads the row from L2 instead of DRAM.
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, N, BLOCK):
            mask = start + cols < N
            x = tl.load(x_row + (start + cols) * stride_n, mask=mask, other=0.0,
                        eviction_policy="evict_last" if HINTS else "").to(tl.float32)
            acc = tl.maximum(acc, tl.abs(x))
        amax = tl.max(acc, axis=0)
        inv = 1.0 / tl.maximum(amax / 448.0, 1.0 / (448.0 * 512.0))
        for start in range(0, N, BLOCK):
            mask = start + cols < N
            x = tl.load(x_row + (start + cols) * stride_n, mask=mask, other=0.0,
                        eviction_policy="evict_first" if HINTS else "").to(tl.float32)
            tl.store(q_row + start + cols, _to_e4m3(x * inv, HW_CVT), mask=mask)


MAX_BLOCK = 16384
# Rows longer than MAX_BLOCK: two passes of chunks (two-byte rows: TWO_PASS_BLOCK on TWO_PASS_WARPS warps).
# Timed on the H200 at 8192 x 28672 bf16 (bench/launch_tuning.py --what fp8_quant, call 62): 214 us
# against 257 with 4096 on 8 warps and no hints (torch.compile: 236). Nsight Compute had shown the
# old launch reading 840 MB from DRAM where one pass reads 470 (call 61): with 16 warps fewer rows are
# resident on an SM at a time, so the rows between a row's two passes fit in L2, and the hints keep
# them there. At 4096 x 14336 the one-pass kernel stays fastest (54 us; two-pass launches 60-88).
# Float32 rows are twice the bytes: with 16-warp programs (up to 4 an SM) the rows between a row's two
# passes no longer fit in L2 (8192 x 28672 float32: 392.7 us, 0.84x torch.compile, call 85). 32 warps
# halve the rows in flight: 8192-element chunks 308.4 us without the hints, 319.2 with them; 4096 on 32
# warps 317.2-321.3; every 16-warp launch 384-634 (call 86, 41 launches).
# Element size -> (chunk, num_warps, eviction hints).
TWO_PASS = {2: (4096, 16, True), 4: (8192, 32, False)}
TWO_PASS_BLOCK, TWO_PASS_WARPS, _ = TWO_PASS[2]


def hw_cast(x: torch.Tensor) -> bool:
    """Whether the kernel may use the GPU's e4m3 cast for x: compiled (not the interpreter) for
    an NVIDIA GPU of compute capability 8.9 or later (Ada, Hopper, Blackwell)."""
    return (not INTERPRET and x.is_cuda and torch.version.hip is None
            and torch.cuda.get_device_capability(x.device) >= (8, 9))


def fp8_quant(x: torch.Tensor) -> torch.Tensor:
    """Per-row dynamic e4m3 quantisation: a new contiguous (M, N) torch.float8_e4m3fn tensor."""
    assert x.ndim == 2
    M, N = x.shape
    q = torch.empty((M, N), dtype=torch.float8_e4m3fn, device=x.device)
    if M == 0 or N == 0:
        return q
    one_pass = N <= MAX_BLOCK
    if one_pass:
        block = triton.next_power_of_2(N)
        num_warps, hints = max(1, min(16, block // 1024)), True
    else:
        block, num_warps, hints = TWO_PASS[4 if x.element_size() >= 4 else 2]
    fp8_quant_kernel[(M,)](x, q, N, x.stride(0), x.stride(1), ONE_PASS=one_pass, BLOCK=block,
                           HW_CVT=hw_cast(x), HINTS=hints, num_warps=num_warps)
    return q


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/fp8_quant/solution.py
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    xf = x.float()
    s = (xf.abs().amax(1, keepdim=True) / FP8_MAX).clamp_min(MIN_SCALE)
    expected = (xf / s).clamp(-FP8_MAX, FP8_MAX).to(torch.float8_e4m3fn)
    torch.testing.assert_close(fp8_quant(x).float(), expected.float(), rtol=0.0625, atol=2 ** -10)
    ms = triton.testing.do_bench(lambda: fp8_quant(x))
    print(f"{x.numel() * (x.element_size() + 1) / ms * 1e-6:.0f} GB/s")
