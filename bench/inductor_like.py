"""Inductor's way of writing the row kernels, timed against the reference solutions (#21).

    PYTHONPATH=. python3 bench/inductor_like.py --out FILE.json [--what softmax_backward,rmsnorm,...]

bench/inductor_code.py showed what torch.compile runs where it leads the solutions by 2-11%
on the H200 (bench/results/inductor_code_h200.tar.gz): for row reductions, two passes over
the row in chunks, the first pass's loads marked evict_last so the second finds the row in L2
and marks its loads evict_first; the shape baked into the kernel as constants (no runtime
sizes, 32-bit offsets); 16-32 warps. For swiglu, a flat range of 1024 outputs a program on
4 warps, unmasked. For softmax, also Liger-Kernel's one-row kernel with and without its cache
hints (.ca loads, .cs stores). This file writes those kernels for the drills' own signatures (N a
constexpr, 32-bit offsets where the tensor is under 2^31 values) and times them, checked
against each drill's baseline first, with bench/long_rows_tuning.py's helper: engine
protocol (L2 flushed by a read) and do_bench_cudagraph. Only a measurement tool: a variant
that wins is then written into the solution with its masks and limits.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from long_rows_tuning import load, point_inputs, time_point  # noqa: E402

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def _row_base(N: tl.constexpr, WIDE: tl.constexpr):
    row = tl.program_id(0)
    if WIDE:
        row = row.to(tl.int64)
    return row * N


@triton.jit
def softmax_bwd_two_pass(y_ptr, dy_ptr, dx_ptr, N: tl.constexpr, BLOCK_N: tl.constexpr, WIDE: tl.constexpr):
    base = _row_base(N, WIDE)
    acc = tl.zeros([BLOCK_N], tl.float32)
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        y = tl.load(y_ptr + base + cols, mask=cols < N, other=0.0, eviction_policy="evict_last").to(tl.float32)
        dy = tl.load(dy_ptr + base + cols, mask=cols < N, other=0.0, eviction_policy="evict_last").to(tl.float32)
        acc += y * dy
    dot = tl.sum(acc, axis=0)
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        y = tl.load(y_ptr + base + cols, mask=cols < N, other=0.0, eviction_policy="evict_first").to(tl.float32)
        dy = tl.load(dy_ptr + base + cols, mask=cols < N, other=0.0, eviction_policy="evict_first").to(tl.float32)
        tl.store(dx_ptr + base + cols, (y * (dy - dot)).to(dx_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def rmsnorm_two_pass(x_ptr, w_ptr, y_ptr, eps, N: tl.constexpr, BLOCK_N: tl.constexpr, WIDE: tl.constexpr):
    base = _row_base(N, WIDE)
    acc = tl.zeros([BLOCK_N], tl.float32)
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0, eviction_policy="evict_last").to(tl.float32)
        acc += x * x
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0, eviction_policy="evict_first").to(tl.float32)
        w = tl.load(w_ptr + cols, mask=cols < N, other=0.0, eviction_policy="evict_last").to(tl.float32)
        tl.store(y_ptr + base + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def layernorm_two_pass(x_ptr, w_ptr, b_ptr, y_ptr, eps, N: tl.constexpr, BLOCK_N: tl.constexpr,
                       WIDE: tl.constexpr, RCP: tl.constexpr = False):
    """Welford per lane (every lane sees N / BLOCK_N values: N a multiple of BLOCK_N), then the
    lanes combined with equal weights: mean of means, m2 = sum m2 + count * sum (mean_l - mean)^2.
    RCP: the update multiplies by 1 / count, one scalar division a chunk, instead of dividing
    every value by count (a float32 division is a dozen instructions; call 73)."""
    base = _row_base(N, WIDE)
    mean = tl.zeros([BLOCK_N], tl.float32)
    m2 = tl.zeros([BLOCK_N], tl.float32)
    count = 0.0
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + base + cols, eviction_policy="evict_last").to(tl.float32)
        count += 1.0
        delta = x - mean
        if RCP:
            mean += delta * (1.0 / count)
        else:
            mean += delta / count
        m2 += delta * (x - mean)
    row_mean = tl.sum(mean, axis=0) / BLOCK_N
    d = mean - row_mean
    rstd = tl.rsqrt((tl.sum(m2, axis=0) + count * tl.sum(d * d, axis=0)) / N + eps)
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + base + cols, eviction_policy="evict_first").to(tl.float32)
        w = tl.load(w_ptr + cols, eviction_policy="evict_last").to(tl.float32)
        b = tl.load(b_ptr + cols, eviction_policy="evict_last").to(tl.float32)
        tl.store(y_ptr + base + cols, ((x - row_mean) * rstd * w + b).to(y_ptr.dtype.element_ty))


@triton.jit
def softmax_two_pass(x_ptr, y_ptr, N: tl.constexpr, BLOCK_N: tl.constexpr, WIDE: tl.constexpr):
    base = _row_base(N, WIDE)
    lane_max = tl.full([BLOCK_N], -float("inf"), tl.float32)
    lane_sum = tl.zeros([BLOCK_N], tl.float32)
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=-float("inf"),
                    eviction_policy="evict_last").to(tl.float32)
        new_max = tl.maximum(lane_max, x)
        seen = new_max > -float("inf")
        lane_sum = tl.where(seen, lane_sum * tl.exp(lane_max - new_max) + tl.exp(x - new_max), 0.0)
        lane_max = new_max
    row_max = tl.max(lane_max, axis=0)
    inv_sum = 1.0 / tl.sum(lane_sum * tl.exp(lane_max - row_max), axis=0)
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=-float("inf"),
                    eviction_policy="evict_first").to(tl.float32)
        tl.store(y_ptr + base + cols, (tl.exp(x - row_max) * inv_sum).to(y_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def softmax_one_row_cached(x_ptr, y_ptr, N, BLOCK_N: tl.constexpr, CACHED: tl.constexpr):
    """Liger-Kernel's single-block softmax: one row a program, the whole row in registers;
    CACHED: its cache hints (.ca on the load, .cs, streaming, on the store)."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    if CACHED:
        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"), cache_modifier=".ca")
    else:
        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"))
    x = x.to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty)
    if CACHED:
        tl.store(y_ptr + row * N + cols, y, mask=cols < N, cache_modifier=".cs")
    else:
        tl.store(y_ptr + row * N + cols, y, mask=cols < N)


@triton.jit
def row_sum_chunks(x_ptr, s_ptr, M, N: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for start in tl.range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=(rows < M)[:, None] & (cols < N)[None, :],
                    other=0.0, eviction_policy="evict_first")
        acc += x.to(tl.float32)
    tl.store(s_ptr + rows, tl.sum(acc, axis=1).to(s_ptr.dtype.element_ty), mask=rows < M)


@triton.jit
def swiglu_flat_const(gu_ptr, y_ptr, total, H: tl.constexpr, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row, col = i // H, i % H
    g_ptrs = gu_ptr + row * (2 * H) + col
    if EVEN:
        g = tl.load(g_ptrs).to(tl.float32)
        u = tl.load(g_ptrs + H).to(tl.float32)
    else:
        g = tl.load(g_ptrs, mask=i < total, other=0.0).to(tl.float32)
        u = tl.load(g_ptrs + H, mask=i < total, other=0.0).to(tl.float32)
    y = (g / (1.0 + tl.exp(-g)) * u).to(y_ptr.dtype.element_ty)
    if EVEN:
        tl.store(y_ptr + i, y)
    else:
        tl.store(y_ptr + i, y, mask=i < total)


def variants(drill: str, sol, M: int, N: int, spec=None):
    """(name, fn(*inputs)) for the solution as it is, torch.compile of the baseline (given
    `spec`; compiled by its first call, the correctness check, before any timing) and
    Inductor-like kernels at (M, N)."""
    wide = M * N * 2 >= 2**31        # 32-bit offsets only where every offset fits
    out = [("solution as is", getattr(sol, drill))]
    if spec is not None:
        torch._dynamo.reset()
        out.append(("torch.compile", torch.compile(spec.baseline, dynamic=False)))
    blocks = [b for b in (2048, 4096, 8192, 16384) if b <= N]

    def rows(kernel, block, warps, **flags):
        def run(x, *rest):
            y = torch.empty_like(x)
            args = {"softmax_backward": lambda: (x, rest[0], y),
                    "rmsnorm": lambda: (x, rest[0], y, rest[1]),
                    "layernorm": lambda: (x, rest[0], rest[1], y, rest[2]),
                    "softmax": lambda: (x, y)}[drill]()
            kernel[(M,)](*args, N=N, BLOCK_N=block, WIDE=wide, num_warps=warps, **flags)
            return y
        return run

    if drill == "softmax":
        def one_row(warps, cached):
            def run(x):
                y = torch.empty_like(x)
                softmax_one_row_cached[(M,)](x, y, N, BLOCK_N=triton.next_power_of_2(N), CACHED=cached,
                                            num_warps=warps)
                return y
            return run
        out += [(f"one row warps={w}" + (" .ca/.cs" if c else ""), one_row(w, c))
                for w in (8, 16, 32) for c in (False, True) if triton.next_power_of_2(N) // (32 * w) >= 4]
    if drill in ("softmax_backward", "rmsnorm", "layernorm", "softmax"):
        kernel = {"softmax_backward": softmax_bwd_two_pass, "rmsnorm": rmsnorm_two_pass,
                  "layernorm": layernorm_two_pass, "softmax": softmax_two_pass}[drill]
        for block in blocks:
            for warps in (8, 16, 32):
                if 4 <= block // (32 * warps) <= 64:
                    out.append((f"two-pass BLOCK_N={block} warps={warps}", rows(kernel, block, warps)))
                    if drill == "layernorm":
                        out.append((f"two-pass BLOCK_N={block} warps={warps} rcp",
                                    rows(kernel, block, warps, RCP=True)))
    elif drill == "row_sum":
        def chunks(block_m, block_n, warps):
            def run(x):
                s = torch.empty((M,), dtype=x.dtype, device=x.device)
                row_sum_chunks[(triton.cdiv(M, block_m),)](x, s, M, N=N, BLOCK_M=block_m, BLOCK_N=block_n,
                                                           num_warps=warps)
                return s
            return run
        for block_m, block_n, warps in ((1, 2048, 16), (2, 2048, 16), (1, 4096, 16), (2, 1024, 8), (4, 1024, 16),
                                        (1, 8192, 16), (1, 4096, 8)):
            if block_n <= N:
                out.append((f"chunks BLOCK_M={block_m} BLOCK_N={block_n} warps={warps}", chunks(block_m, block_n, warps)))
    elif drill == "swiglu":                     # (M, H): gu is (M, 2H)
        def flat(block, warps):
            def run(gu):
                y = torch.empty((M, N), dtype=gu.dtype, device=gu.device)
                swiglu_flat_const[(triton.cdiv(M * N, block),)](gu, y, M * N, H=N, BLOCK=block,
                                                                EVEN=(M * N) % block == 0, num_warps=warps)
                return y
            return run
        out += [(f"flat const BLOCK={b} warps={w}", flat(b, w)) for b in (512, 1024, 2048) for w in (4, 8)]
    return out


SHAPES = {
    "softmax_backward": ["1024x16384", "4096x16384", "16384x16384", "4096x8192"],
    "rmsnorm": ["1024x16384", "4096x16384", "1024x32768", "4096x8192", "16384x8192"],
    "layernorm": ["4096x16384", "16384x16384", "4096x4096"],
    "softmax": ["1024x16384", "16384x8192"],
    "swiglu": ["4096x16384", "1024x8192", "16384x16384"],
    "row_sum": ["16384x2048", "1024x16384", "4096x16384"],
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--what", default=",".join(SHAPES))
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--rep-ms", type=float, default=15.0)
    parser.add_argument("--device", default="cuda", help="cpu (with TRITON_INTERPRET=1): check, do not time")
    parser.add_argument("--shapes", default="", help="only these shapes (default: the drill's list here)")
    args = parser.parse_args()
    from long_rows_tuning import bf16_tolerance

    rows = []
    for drill in args.what.split(","):
        spec, sol = load(drill, "spec"), load(drill, "solution")
        for shape_s in (args.shapes.split(",") if args.shapes else SHAPES[drill]):
            M, N = map(int, shape_s.split("x"))
            inputs, want = point_inputs(spec, [M, N], args.dtype, args.device)
            if args.device == "cpu":
                for name, fn in variants(drill, sol, M, N):
                    err = float((fn(*inputs).float() - want).abs().max())
                    print(f"{drill} {shape_s} {name}: max abs err {err:.3g} (tolerance {bf16_tolerance(want):.3g})")
                continue
            time_point(f"{drill} {shape_s}", {"drill": drill, "shape": [M, N], "dtype": args.dtype},
                       variants(drill, sol, M, N, spec), inputs, want, args.rep_ms, rows, args.out)
            del inputs, want
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
