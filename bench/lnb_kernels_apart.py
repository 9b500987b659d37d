"""layernorm_backward's long two-byte rows: each kernel of torch.compile's plan and of the
reference solution's separate passes timed apart, then the solution's dweight / dbias pass at
other launch shapes (#21). Needs a GPU (except --dry-run).

    PYTHONPATH=. python3 bench/lnb_kernels_apart.py --out $OUT/lnb_apart.json
    PYTHONPATH=. python3 bench/lnb_kernels_apart.py --only-whole --repeat 3 --out $OUT/lnb_order.json

At 4096 x 12288 on the H200 (call 69) the solution's separate passes took 142.9 us in bf16 and
142.4 in fp16 against torch.compile's 137.0 and 132.1, and which of its two kernels trailed
Inductor's was not known. This prints, per point:

1. kernels: torch.profiler over --iters calls of torch.compile(spec.baseline) and of the
   solution, each call after the engine's L2 flush (a 256 MiB read), and the mean device time
   of each kernel (the flush's own reduction kernels among them, by name);
2. dwdb: the solution's `dwdb_pass` alone (rows M and M + 1 of the output) at each launch of
   COLS (BLOCK_C, BLOCK_R, num_warps, bands of rows: with more than one band, float32 partials
   summed by a second small kernel; STAGES, software pipelining; UNROLL, the row loop unrolled;
   some with the kernel's unmasked loads or 32-bit offsets forced off), the same sums in
   Inductor's [columns, rows] layout (COLS_MAJOR), and `dx_pass` alone at each launch of DX,
   timed the engine's way (do_bench, L2 flushed), each checked against spec.reference first;
3. whole: `run_separate` with the fastest --whole dwdb launches, and with its kernels in the
   other order (dx first), beside torch.compile, timed the same way (--repeat rounds).

--only-whole: 3 alone (torch.compile and the solution in both orders), interleaved --repeat
times. What it found on the H200 (calls 72-83, bench/results/launch_tuning.md): the dx kernels
level, the dwdb kernel 5-8 us behind until its row loop was unrolled, and the dwdb kernel run
first 2.5-3% faster whole.

--dry-run: no GPU; every launch of 2 and 3 on a few rows under Triton's interpreter, checked,
not timed (TRITON_INTERPRET=1 is set for you).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
DRILL = REPO / "kernels" / "layernorm_backward"

# dweight / dbias launches: (BLOCK_C, BLOCK_R, num_warps, bands, STAGES, UNROLL), even, wide (None:
# as dwdb_pass works them out; False / True: forced). The first is the default. Call 72 timed 18
# launches with masked loads and 64-bit offsets (the kernel of then): 192 programs of 64 x 64 on
# 16 warps, 62.5-62.9 us, two bands of rows 58.7-59.4, against Inductor's same tile at 54.4-57.8.
# Call 73: unmasked loads and 32-bit offsets 60.5-60.8. Call 74: more loads in flight a thread:
# the row loop unrolled 4 times 55.8-56.2 (taken), software pipelining (STAGES 3-4) 58.2-58.6.
# Here (call 75): around the unrolled launch.
COLS = [
    ((64, 64, 16, 1, 0, 4), None, None), ((64, 64, 16, 1, 0, 1), None, None), ((64, 64, 16, 1, 0, 4), False, True),
    ((64, 64, 16, 1, 0, 8), None, None), ((64, 64, 16, 1, 3, 4), None, None), ((64, 64, 8, 1, 0, 4), None, None),
    ((64, 128, 16, 1, 0, 2), None, None), ((64, 128, 16, 1, 0, 4), None, None), ((32, 128, 8, 1, 0, 4), None, None),
    ((64, 32, 16, 1, 0, 8), None, None), ((64, 32, 8, 1, 0, 8), None, None), ((128, 32, 16, 1, 0, 4), None, None),
    ((64, 64, 16, 2, 0, 4), None, None), ((32, 64, 8, 1, 0, 8), None, None),
]
# Inductor's own layout of the same sums (call 77): tiles [BLOCK_C columns, BLOCK_R rows], the
# reduction along axis 1, at (BLOCK_C, BLOCK_R, num_warps, UNROLL); contiguous rows whole tiles only.
COLS_MAJOR = [(64, 64, 16, 1), (64, 64, 16, 4), (64, 64, 8, 4), (128, 32, 16, 4), (64, 32, 8, 8)]
# dx launches: (chunk columns, num_warps); the first is the default (call 72: the other four
# tried were 3-83% slower)
DX = [(4096, 8), (2048, 8)]


@functools.cache
def cols_major_kernel():
    """ln_bwd_dwdb_kernel's sums written in Inductor's layout (built on first use: Triton is
    imported after --dry-run sets the interpreter)."""
    import triton
    import triton.language as tl

    @triton.jit
    def dwdb_cols_major(dy_ptr, x_ptr, mean_ptr, rstd_ptr, dw_ptr, M, N: tl.constexpr, BLOCK_C: tl.constexpr,
                        BLOCK_R: tl.constexpr, UNROLL: tl.constexpr):
        cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)[:, None]
        acc_w = tl.zeros([BLOCK_C, BLOCK_R], tl.float32)
        acc_b = tl.zeros([BLOCK_C, BLOCK_R], tl.float32)
        for r0 in tl.range(0, M, BLOCK_R, loop_unroll_factor=UNROLL):
            rows = r0 + tl.arange(0, BLOCK_R)[None, :]
            dy = tl.load(dy_ptr + cols + N * rows, eviction_policy="evict_first").to(tl.float32)
            x = tl.load(x_ptr + cols + N * rows, eviction_policy="evict_first").to(tl.float32)
            mean = tl.load(mean_ptr + rows, eviction_policy="evict_last")
            rstd = tl.load(rstd_ptr + rows, eviction_policy="evict_last")
            acc_w += dy * ((x - mean) * rstd)
            acc_b += dy
        c = tl.reshape(cols, [BLOCK_C])
        tl.store(dw_ptr + c, tl.sum(acc_w, axis=1).to(dw_ptr.dtype.element_ty))
        tl.store(dw_ptr + N + c, tl.sum(acc_b, axis=1).to(dw_ptr.dtype.element_ty))

    return dwdb_cols_major


def load(what: str):
    spec = importlib.util.spec_from_file_location(f"_lnba_{what}", DRILL / f"{what}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn, rep_ms: float) -> float:
    """Median us of fn under the engine's protocol (do_bench, L2 flushed by a 256 MiB read)."""
    from studio.drills.harness import timing

    return timing.quantiles(timing.time_baseline(fn, 10, rep_ms))[0] * 1e3


def kernel_means(torch, fn, iters: int) -> dict[str, tuple[float, int]]:
    """{kernel name: (mean device us, launches a call)} over `iters` calls of fn, each after an
    L2 flush (the flush's own kernels included: their names say what they are)."""
    cache = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    fn()
    torch.cuda.synchronize()
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(iters):
            cache.sum()
            fn()
        torch.cuda.synchronize()
    out = {}
    for evt in prof.key_averages():
        total = getattr(evt, "self_device_time_total", None)
        if total is None:
            total = getattr(evt, "self_cuda_time_total", 0.0)
        if evt.count and total:
            out[evt.key] = (total / evt.count, evt.count / iters)
    return out


def check(torch, out, ref, tol, rows) -> tuple[bool, float]:
    got = out[rows].double()
    want = ref[rows]
    ok = bool(torch.isclose(got, want, atol=tol["atol"], rtol=tol["rtol"]).all())
    return ok, float((got - want).abs().nan_to_num(float("inf")).max())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default="4096x12288")
    parser.add_argument("--dtypes", default="bfloat16,float16")
    parser.add_argument("--iters", type=int, default=30, help="profiled calls a contender (1.)")
    parser.add_argument("--rep-ms", type=float, default=10.0)
    parser.add_argument("--whole", type=int, default=3, help="fastest dwdb launches timed whole (3.)")
    parser.add_argument("--only-whole", action="store_true", help="skip 1. and 2.: torch.compile and the "
                        "solution's plan whole, in both orders of its kernels, interleaved --repeat times")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", default=None)
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--dry-rows", type=int, default=40)
    args = parser.parse_args()
    if args.dry_run:
        os.environ["TRITON_INTERPRET"] = "1"
    import torch
    import yaml

    sol, spec = load("solution"), load("spec")
    tol = yaml.safe_load((DRILL / "drill.yaml").read_text())["tolerances"]
    device = "cpu" if args.dry_run else "cuda"
    if not args.dry_run:
        print(f"{torch.cuda.get_device_name(0)}; torch {torch.__version__}, triton "
              f"{__import__('triton').__version__}", flush=True)
    rows_out = []
    t0 = time.monotonic()
    for shape in args.shapes.split(","):
        M, N = map(int, shape.split("x"))
        for dtype in args.dtypes.split(","):
            m = min(M, args.dry_rows) if args.dry_run else M
            case = {"name": "apart", "shape": [m, N], "dtype": dtype, "fill": "randn", "layout": "contiguous"}
            inputs = spec.make_inputs(case, torch.Generator().manual_seed(1), torch.device(device))
            ref = spec.reference(*inputs)
            dy, x, w, mean, rstd = inputs
            tag = f"{M}x{N} {dtype}"

            def emit(row):
                row.update(shape=f"{M}x{N}", dtype=dtype)
                rows_out.append(row)
                us = f"{row['us']:8.1f} us" if "us" in row else ""
                print(f"{tag:22} {row['what']:52} {us} {row.get('note', '')}", flush=True)

            if not args.dry_run:
                torch._dynamo.reset()
                compiled = torch.compile(spec.baseline, dynamic=False)
                compiled(*inputs)
            if not args.dry_run and not args.only_whole:
                for name, fn in (("torch.compile", lambda: compiled(*inputs)),
                                 ("solution", lambda: sol.layernorm_backward(*inputs))):
                    for kname, (us, per_call) in sorted(kernel_means(torch, fn, args.iters).items(),
                                                        key=lambda kv: -kv[1][0]):
                        emit({"part": "kernel", "who": name, "kernel": kname, "us": us, "per_call": per_call,
                              "what": f"{name}: {kname[:60]}", "note": f"x{per_call:g} a call"})
            out = torch.empty((m + 2, N), dtype=x.dtype, device=x.device)
            times = {}
            for cols, even, wide in ([] if args.only_whole else COLS):
                flags = {"even": even, "wide": wide}
                named = "".join(f" {k}={v}" for k, v in flags.items() if v is not None)
                row = {"part": "dwdb", "cols": list(cols), **flags, "what": f"dwdb_pass cols={cols}{named}"}
                try:
                    out.fill_(float("nan"))
                    sol.dwdb_pass(dy, x, mean, rstd, out, cols, **flags)
                    ok, err = check(torch, out, ref, tol[dtype], slice(m, m + 2))
                    row.update(ok=ok, max_abs_err=err, note=f"{'ok' if ok else 'WRONG'} (max err {err:.3g})")
                    if ok and not args.dry_run:
                        row["us"] = timed(lambda c=cols, f=flags: sol.dwdb_pass(dy, x, mean, rstd, out, c, **f),
                                          args.rep_ms)
                        if even is None and wide is None:
                            times[cols] = row["us"]
                except Exception as exc:  # noqa: BLE001 - a launch that cannot compile or run
                    row["error"] = row["note"] = f"{type(exc).__name__}: {str(exc)[:160]}"
                emit(row)
            for block_c, block_r, warps, unroll in ([] if args.only_whole else COLS_MAJOR):
                if M % block_r or N % block_c or not x.is_contiguous() or not dy.is_contiguous():
                    continue
                kernel = cols_major_kernel()

                def major(b=block_c, r=block_r, wp=warps, u=unroll):
                    kernel[(N // b,)](dy, x, mean, rstd, out[m], m, N=N, BLOCK_C=b, BLOCK_R=r, UNROLL=u, num_warps=wp)

                row = {"part": "dwdb cols-major", "cols": [block_c, block_r, warps, unroll],
                       "what": f"dwdb cols-major {(block_c, block_r, warps, unroll)}"}
                try:
                    out.fill_(float("nan"))
                    major()
                    ok, err = check(torch, out, ref, tol[dtype], slice(m, m + 2))
                    row.update(ok=ok, max_abs_err=err, note=f"{'ok' if ok else 'WRONG'} (max err {err:.3g})")
                    if ok and not args.dry_run:
                        row["us"] = timed(major, args.rep_ms)
                except Exception as exc:  # noqa: BLE001
                    row["error"] = row["note"] = f"{type(exc).__name__}: {str(exc)[:160]}"
                emit(row)
            for dx in ([] if args.only_whole else DX):
                row = {"part": "dx", "dx": list(dx), "what": f"dx_pass dx={dx}"}
                try:
                    out.fill_(float("nan"))
                    sol.dx_pass(dy, x, w, mean, rstd, out, dx)
                    ok, err = check(torch, out, ref, tol[dtype], slice(0, m))
                    row.update(ok=ok, max_abs_err=err, note=f"{'ok' if ok else 'WRONG'} (max err {err:.3g})")
                    if ok and not args.dry_run:
                        row["us"] = timed(lambda d=dx: sol.dx_pass(dy, x, w, mean, rstd, out, d), args.rep_ms)
                except Exception as exc:  # noqa: BLE001
                    row["error"] = row["note"] = f"{type(exc).__name__}: {str(exc)[:160]}"
                emit(row)
            automatic = [c for c, e, w in COLS if e is None and w is None]
            best = sorted(times, key=times.get)[:args.whole] if times else automatic[:args.whole]
            if automatic[0] not in best:
                best.append(automatic[0])
            whole = [("torch.compile", lambda: compiled(*inputs))] if not args.dry_run else []
            if args.only_whole:
                best = automatic[:1]
            whole += [(f"run_separate cols={c}", lambda c=c: sol.run_separate(dy, x, w, mean, rstd, cols=c))
                      for c in best]
            whole += [("run_separate, dx kernel first (the order before call 83)",
                       lambda: sol.run_separate(dy, x, w, mean, rstd, dx_first=True))]
            for name, fn in whole * args.repeat:         # --repeat: interleaved rounds
                row = {"part": "whole", "what": name}
                got = fn()
                got = torch.cat([got[0], got[1][None], got[2][None]]) if isinstance(got, (tuple, list)) else got
                ok, err = check(torch, got, ref, tol[dtype], slice(0, m + 2))
                row.update(ok=ok, max_abs_err=err, note=f"{'ok' if ok else 'WRONG'} (max err {err:.3g})")
                if ok and not args.dry_run:
                    row["us"] = timed(fn, args.rep_ms)
                emit(row)
            if args.out:
                Path(args.out).write_text(json.dumps(rows_out, indent=1))
    print(f"total {time.monotonic() - t0:.0f} s")
    return 0 if all(r.get("ok", True) and "error" not in r for r in rows_out) else 1


if __name__ == "__main__":
    sys.exit(main())
