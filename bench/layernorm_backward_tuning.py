"""Launch configurations of the layernorm_backward reference solution, timed at its bench shapes
against torch eager and torch.compile (#21). Needs a GPU (except --dry-run).

    PYTHONPATH=. python3 bench/layernorm_backward_tuning.py --out $OUT/lnb_tuning.json

On the H200 (bench/peers.py, call 55) the solution was 0.41x the best peer at 32768 x 768
bf16 (torch.compile), 0.98x at 8192 x 5120 (Liger) and 0.62x at 4096 x 12288 (torch.compile).
kernels/layernorm_backward/solution.py now takes a `LaunchConfig` (whole rows in registers or
chunks of a long row walked twice; BLOCK_M, BLOCK_N, num_warps, software-pipelining STAGES,
programs per SM, interleaved tiles or contiguous bands, a register cap so those programs fit
an SM) and `launch_config` picks one from
reasoned, unmeasured tables. This runs, per shape and dtype, the solution's kernels under
each candidate config (the default first, then the launch the solution had before:
contiguous bands, 2 programs per SM, no pipelining), each checked against spec.reference
with the drill's tolerance, and times them the engine's way: do_bench with L2 flushed by
reading 256 MiB (studio/drills/harness/timing.py `time_baseline`). Torch eager
(spec.baseline), torch.compile(spec.baseline) (compiled once per shape, outside the timing)
and Liger-Kernel (where installed) are timed the same way.

Prints one line per variant (shape, dtype, config, median us, GB/s by the drill's bytes model,
ok) as it goes, then a summary per point: the default, the fastest config, the best peer and
their ratio, and the fastest config as a LaunchConfig to paste into the tables. --out writes
every row as JSON (after each point, so a run cut short keeps what it measured).

Options: --shapes MxN,... (default: drill.yaml's bench shapes, the three the solution lost
first), --dtypes (default bfloat16), --fp32-shapes (float32 points, default 32768x768 and
4096x12288; '' for none), --quick (five configs a point, 10 ms of repeats, no float32 points
unless --fp32-shapes is given), --no-compile (skip torch.compile: its compiles are most of a
run's time), --split (also time the rows kernel alone: the rest is the cols kernel; with
--two-kernels, the dx kernel alone), --two-kernels (instead of the solution's variant configs,
Inductor's two-kernel plan at several launches: bench/lnb_two_kernels.py), --budget-s
(start no point after this many seconds, and no variant 15 s after that; default 120, so a
run ends within ~150 s: points not reached are listed at the end; no limit with --dry-run),
--dry-run (no GPU: every config of every point on a few rows under Triton's interpreter,
checked, not timed; no peers).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
DRILL = REPO / "kernels" / "layernorm_backward"
BENCH_SHAPES = "32768x768,4096x12288,8192x5120,16384x2048,8192x4096,4096x4096"
FP32_SHAPES = "32768x768,4096x12288"
LATE_S = 15.0        # a point started before the budget ran out runs its variants this much longer
NOT_RUN = "not run: past the time budget"


def load(what: str):
    spec = importlib.util.spec_from_file_location(f"_lnbt_{what}", DRILL / f"{what}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def previous_launch(sol, N: int):
    """The launch the solution had before LaunchConfig (its launch_config then): tiles of
    ~4K values, 4/8/16 warps by tile size, 2 programs per SM over contiguous bands, no
    software pipelining. (Its cols kernel then had fixed 64-column blocks; this one sizes them.)"""
    import triton

    block_n = triton.next_power_of_2(N)
    if block_n > sol.MAX_FUSED_BLOCK_N:
        return None
    block_m = min(16, max(1, 4096 // block_n))
    tile = block_m * block_n
    return sol.LaunchConfig(False, block_m, block_n, 4 if tile <= 2048 else 8 if tile <= 8192 else 16, 1, 2,
                            interleave=False, fit_registers=False)


def candidates(sol, M: int, N: int, itemsize: int, sms: int, quick: bool) -> list[tuple[str, object]]:
    """(name, LaunchConfig) to time at one point: the default, the previous launch, then
    variants, the most telling first (--quick keeps five). Registers per thread noted are
    ptxas's for sm_90 with Triton 3.6 (bf16 unless said), what bounds programs per SM."""
    import triton

    def F(bm, w, s, p, il=True, bn=None):          # whole rows in registers
        return sol.LaunchConfig(False, bm, bn or triton.next_power_of_2(N), w, s, p, il)

    def C(bm, chunk, w, s, p, il=True):            # chunks of a row, two passes
        return sol.LaunchConfig(True, bm, chunk, w, s, p, il)

    block_n = triton.next_power_of_2(N)
    wide = itemsize > 2
    if block_n <= 1024 and not wide:
        # 4 x 1024 on 4 warps: 128 registers under the cap (4 programs per SM), 136 without it
        # at 2 stages; 2 x 1024: ~95-125 (4-5); 8 x 1024 on 8: 162 (1)
        more = [F(4, 4, 1, 4), F(4, 4, 2, 4), F(4, 4, 3, 4, il=False), F(2, 4, 3, 4), F(4, 4, 3, 3),
                F(2, 4, 2, 5), F(4, 8, 3, 2), F(8, 8, 2, 1), F(1, 4, 3, 6),
                sol.LaunchConfig(False, 4, 1024, 4, 2, 4, True, False)]
    elif block_n <= 1024:
        # fp32: 2 x 1024 on 4 warps ~110-120 registers (4 per SM), 89 uncapped at p5; 4 x 1024: 146 (3)
        more = [F(2, 4, 1, 4), F(2, 4, 2, 4), F(2, 4, 3, 4, il=False), F(4, 4, 3, 3), F(1, 4, 3, 4),
                F(2, 4, 2, 5)]
    elif block_n == 2048:
        # 1 x 2048 on 4 warps: ~120 registers (4 per SM); 2 x 2048 on 4: 157 (3); on 8: ~115 (2)
        more = [F(1, 4, 1, 4), F(2, 8, 3, 2), F(1, 4, 3, 4, il=False), F(1, 4, 2, 4), F(2, 4, 3, 3),
                F(2, 8, 2, 2), F(1, 4, 3, 2), F(1, 8, 3, 2)]
    elif block_n == 4096:
        # 1 x 4096 on 8 warps: ~120 registers (2 per SM), on 4: 230 (2); 2 x 4096 on 8: 182 (1)
        more = [F(1, 8, 1, 2), C(4, 1024, 4, 3, 2), F(1, 8, 3, 2, il=False), F(1, 8, 2, 2), F(1, 4, 3, 2),
                F(1, 16, 3, 1), F(2, 8, 3, 1), C(4, 1024, 4, 3, 1), C(2, 2048, 8, 3, 1)]
    elif block_n == 8192 and not wide:
        # chunked 4 x 1024 on 4 warps: 128 registers, 56 KiB of shared memory at 3 stages;
        # whole rows of 8192 on 16 warps: ~120-128 (1 per SM), on 8: 254
        more = [C(4, 1024, 4, 3, 1), F(1, 16, 3, 1), C(4, 2048, 8, 3, 1), C(4, 1024, 4, 1, 2),
                C(4, 1024, 4, 2, 2), C(2, 1024, 4, 3, 3), C(2, 2048, 8, 3, 1), C(8, 1024, 8, 3, 1),
                C(4, 1024, 4, 3, 2, il=False), F(1, 16, 1, 1)]
    elif not wide:
        # 12288 (16384): whole rows spill (1 x 16384 on 16 warps); chunked as above; 2 x 2048 on 8: 104
        more = [C(2, 1024, 4, 3, 2), C(4, 2048, 8, 3, 1), C(4, 1024, 4, 1, 1), C(4, 1024, 4, 2, 1),
                C(4, 1024, 4, 4, 1), C(4, 1024, 4, 3, 2), C(2, 2048, 8, 3, 1), C(8, 1024, 8, 3, 1),
                C(2, 1024, 4, 3, 3), C(4, 1024, 4, 3, 1, il=False)]
    elif block_n == 8192:
        # fp32 rows of 4097-8192 (8192 x 5120: 0.83x Liger-Kernel, call 85, whose kernel keeps the
        # whole row, 32 warps, one program per SM): whole rows on 16 warps (16 values a thread and
        # tensor, 128-register cap) or 32 (8 values, 64-register cap), pipelined or not; then the
        # chunked launches
        more = [F(1, 32, 1, 1), F(1, 32, 2, 1), F(1, 32, 3, 1), F(1, 16, 1, 1), F(1, 16, 2, 1),
                F(1, 16, 3, 1), sol.LaunchConfig(False, 1, 8192, 16, 1, 1, True, False),
                C(2, 1024, 4, 2, 1), C(2, 2048, 8, 3, 1), C(1, 2048, 4, 3, 2)]
    else:
        # fp32 long rows: chunked 2 x 1024 on 4 warps 111 registers; 4 x 1024: 150, 88 KiB at 3 stages
        more = [C(2, 1024, 4, 2, 1), C(4, 1024, 4, 3, 1), C(2, 1024, 4, 3, 2), C(2, 2048, 8, 3, 1),
                C(2, 1024, 4, 1, 1), C(1, 2048, 4, 3, 2)]
    named = [("default", sol.launch_config(M, N, sms, itemsize))]
    previous = previous_launch(sol, N)
    if previous is not None:
        named.append(("previous", previous))
    named += [("variant", cfg) for cfg in more]
    seen, out = set(), []
    for name, cfg in named:
        if cfg not in seen and (cfg.chunked or cfg.block_n >= N):
            seen.add(cfg)
            out.append((name, cfg))
    return out[:5] if quick else out


def tolerances() -> dict:
    import yaml

    return yaml.safe_load((DRILL / "drill.yaml").read_text())["tolerances"]


def check(torch, out, ref, tol: dict) -> tuple[bool, float]:
    """(within the drill's tolerance everywhere, max abs error) of [dx; dw; db] against the
    float64 reference; a peer's (dx, dw, db) is stacked first."""
    if isinstance(out, (tuple, list)):
        dx, dw, db = out
        out = torch.cat([dx.double(), dw.double()[None], db.double()[None]])
    got = out.double()
    ok = bool(torch.isclose(got, ref, atol=tol["atol"], rtol=tol["rtol"], equal_nan=False).all())
    return ok, float((got - ref).abs().nan_to_num(float("inf")).max())


def liger_peer():
    try:
        from liger_kernel.ops.layer_norm import layer_norm_backward
    except Exception:  # noqa: BLE001 - optional: not installed, or its API moved
        return None
    return lambda dy, x, w, mean, rstd: layer_norm_backward(dy, x, w, w, mean, rstd)


def timed(fn, rep_ms: float) -> float:
    """Median us of fn under the engine's protocol (do_bench, L2 flushed by a 256 MiB read)."""
    from studio.drills.harness import timing

    return timing.quantiles(timing.time_baseline(fn, 10, rep_ms))[0] * 1e3


def run_point(args, sol, spec, tol, shape, dtype, rows_out: list, deadline: float) -> dict:
    import torch

    M, N = shape
    case = {"name": "tuning", "shape": [M, N], "dtype": dtype, "fill": "randn", "layout": "contiguous"}
    device = "cpu" if args.dry_run else "cuda"
    dry_m = min(M, args.dry_rows) if args.dry_run else M
    run_case = dict(case, shape=[dry_m, N])
    inputs = spec.make_inputs(run_case, torch.Generator().manual_seed(1), torch.device(device))
    ref = spec.reference(*inputs)
    nbytes = spec.bytes_moved(case)
    itemsize = inputs[1].element_size()
    sms = torch.cuda.get_device_properties(0).multi_processor_count if not args.dry_run else 132
    point = {"shape": [M, N], "dtype": dtype, "rows": []}
    label = f"{M}x{N}"

    def record(kind: str, name: str, fn, extra: dict | None = None, rows_fn=None) -> None:
        row = {"shape": label, "dtype": dtype, "kind": kind, "name": name, **(extra or {})}
        if time.monotonic() > deadline + LATE_S:
            row["error"] = NOT_RUN
        else:
            try:
                out = fn()
                ok, err = check(torch, out, ref, tol)
                row["ok"], row["max_abs_err"] = ok, err
                del out
                if ok and not args.dry_run:
                    row["us"] = timed(fn, args.rep_ms)
                    row["gbps"] = nbytes / (row["us"] * 1e-6) / 1e9
                    if rows_fn is not None:
                        row["rows_kernel_us"] = timed(rows_fn, args.rep_ms)
            except Exception as exc:  # noqa: BLE001 - a config that cannot compile or run
                row["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
        point["rows"].append(row)
        rows_out.append(row)
        print(format_row(row), flush=True)

    # the peers first: a point cut short by the budget still has what the configs must beat
    if not args.dry_run:         # (ATen's CPU kernel refuses bf16 with float32 mean / rstd)
        record("peer", "torch eager", lambda: spec.baseline(*inputs))
    if not args.no_compile and not args.dry_run:
        torch._dynamo.reset()         # a fresh compile per shape (dynamo's recompile limit)
        compiled = torch.compile(spec.baseline, dynamic=False)
        record("peer", "torch.compile", lambda: compiled(*inputs))
    liger = None if args.dry_run else liger_peer()
    if liger is not None:
        record("peer", "liger", lambda: liger(*inputs))
    configs = candidates(sol, M, N, itemsize, sms, args.quick)
    if sol.separate_passes(N, itemsize):   # the solution's default there is not a LaunchConfig of run()
        record("solution", "default: separate passes", lambda: sol.layernorm_backward(*inputs),
               {"config": "separate passes (run_separate)", "launch": "run_separate", "programs": dry_m})
        configs = [("chunked" if name == "default" else name, cfg) for name, cfg in configs]
    elif N > sol.FUSED_MAX_BLOCK_N[4 if itemsize > 2 else 2]:
        # rows the solution chunks (float32 beyond 4096 columns): torch.compile's separate passes too
        record("solution", "variant: separate passes", lambda: sol.run_separate(*inputs),
               {"config": "separate passes (run_separate)", "launch": "run_separate", "programs": dry_m})
    if args.two_kernels:             # the solution's default, then Inductor's plan (bench/lnb_two_kernels.py)
        import lnb_two_kernels as two

        configs = configs[:1]
        dx_out = torch.empty((dry_m + 2, N), dtype=inputs[1].dtype, device=inputs[1].device)
        for name, dx_cfg, cols_cfg in two.PLANS:
            label_ = f"two kernels: {name}"
            record("solution", label_, lambda d=dx_cfg, c=cols_cfg: two.run_two(*inputs, d, c),
                   {"config": label_, "launch": f"run_two(dx_cfg={dx_cfg}, cols_cfg={cols_cfg})", "programs": dry_m},
                   (lambda d=dx_cfg: two.dx_pass(*inputs, dx_out, d)) if args.split else None)
    for name, cfg in configs:
        programs, _ = sol.plan(dry_m, N, sms if not args.dry_run else 2, cfg)
        extra = {"config": cfg.label(), "launch": repr(cfg), "programs": programs}
        rows_fn = (lambda c=cfg: sol.rows_pass(*inputs, c)) if args.split else None
        record("solution", f"{name}: {cfg.label()}", lambda c=cfg: sol.run(*inputs, c), extra, rows_fn)
    return point


def format_row(row: dict) -> str:
    us = f"{row['us']:8.1f}" if "us" in row else "       -"
    gbps = f"{row['gbps']:6.0f}" if "gbps" in row else "     -"
    rows_us = f"  rows kernel {row['rows_kernel_us']:.1f} us" if "rows_kernel_us" in row else ""
    if "error" in row:
        status = f"ERROR {row['error']}"
    elif row.get("ok"):
        status = f"ok (max err {row['max_abs_err']:.2g})"
    else:
        status = f"WRONG (max err {row['max_abs_err']:.3g})"
    progs = f" P={row['programs']}" if "programs" in row else ""
    return f"{row['shape']:>11} {row['dtype']:>8}  {row['name'][:58]:<58}{progs:<7} {us} us {gbps} GB/s  {status}{rows_us}"


def summary(points: list[dict], dry_run: bool) -> None:
    if dry_run:
        print("\n--dry-run: every config above was checked on a few rows under Triton's interpreter, "
              "none timed")
        return
    print("\nSummary (median us, engine protocol; ratio = best peer time / fastest config time):")
    for point in points:
        label = f"{point['shape'][0]}x{point['shape'][1]} {point['dtype']}"
        sols = [r for r in point["rows"] if r["kind"] == "solution" and "us" in r]
        peers = [r for r in point["rows"] if r["kind"] == "peer" and "us" in r]
        default = next((r for r in sols if r["name"].startswith("default")), None)
        best = min(sols, key=lambda r: r["us"]) if sols else None
        peer = min(peers, key=lambda r: r["us"]) if peers else None
        parts = [f"{label}:"]
        if default:
            parts.append(f"default {default['us']:.1f}")
        if best:
            parts.append(f"fastest {best['us']:.1f} ({best['config']}, {best['gbps']:.0f} GB/s)")
        if peer:
            parts.append(f"best peer {peer['name']} {peer['us']:.1f}")
        if best and peer:
            parts.append(f"ratio {peer['us'] / best['us']:.2f}")
        print("  " + "  ".join(parts))
        if best:
            print(f"      fastest as a LaunchConfig: {best['launch']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default=BENCH_SHAPES, help="MxN,... (default: drill.yaml's bench shapes)")
    parser.add_argument("--dtypes", default="bfloat16")
    parser.add_argument("--fp32-shapes", default=None, help=f"float32 points (default {FP32_SHAPES}; "
                        "--quick: none); '' for none")
    parser.add_argument("--quick", action="store_true", help="five configs a point, 10 ms of repeats, no fp32 points")
    parser.add_argument("--rep-ms", type=float, default=None, help="do_bench repeat time (default 20, --quick 10)")
    parser.add_argument("--no-compile", action="store_true", help="skip the torch.compile peer")
    parser.add_argument("--split", action="store_true", help="also time the rows kernel alone")
    parser.add_argument("--two-kernels", action="store_true", help="instead of the solution's variant configs, "
                        "torch.compile's plan (a dx kernel, a dw/db kernel; bench/lnb_two_kernels.py) at its "
                        "launches, beside the solution's default")
    parser.add_argument("--budget-s", type=float, default=None, help="start no point after this many seconds "
                        f"(and no variant {LATE_S:.0f} s after that); default 120, none with --dry-run")
    parser.add_argument("--out", default=None, help="JSON file for every row")
    parser.add_argument("--dry-run", action="store_true", help="no GPU: check every config on a few rows "
                        "under Triton's interpreter, no timing")
    parser.add_argument("--dry-rows", type=int, default=6, help="rows per point in --dry-run")
    args = parser.parse_args()
    if args.budget_s is None:
        args.budget_s = float("inf") if args.dry_run else 120.0
    if args.rep_ms is None:
        args.rep_ms = 10.0 if args.quick else 20.0
    if args.fp32_shapes is None:
        args.fp32_shapes = "" if args.quick else FP32_SHAPES
    points = [(tuple(map(int, s.split("x"))), d) for d in args.dtypes.split(",") if d
              for s in args.shapes.split(",") if s]
    points += [(tuple(map(int, s.split("x"))), "float32") for s in args.fp32_shapes.split(",") if s]
    if args.dry_run:
        os.environ["TRITON_INTERPRET"] = "1"      # read when triton is first imported, below
    started = time.monotonic()
    deadline = started + args.budget_s

    import torch
    import triton

    sol, spec, tol = load("solution"), load("spec"), tolerances()
    if args.dry_run:
        device = "cpu (Triton interpreter, --dry-run: checked, not timed)"
    else:
        props = torch.cuda.get_device_properties(0)
        device = f"{props.name}, {props.multi_processor_count} SMs"
    print(f"{' '.join(sys.argv)}\n{device}; torch {torch.__version__}, triton {triton.__version__}", flush=True)
    rows, done, skipped = [], [], []
    for shape, dtype in points:
        if time.monotonic() > deadline:
            skipped.append(f"{shape[0]}x{shape[1]} {dtype}")
            continue
        done.append(run_point(args, sol, spec, tol[dtype], shape, dtype, rows, deadline))
        if not args.dry_run:
            torch.cuda.empty_cache()          # the point's inputs are gone with run_point's frame
        if args.out:
            Path(args.out).write_text(json.dumps({"command": " ".join(sys.argv), "device": device,
                                                  "torch": torch.__version__, "triton": triton.__version__,
                                                  "rows": rows}, indent=1))
    summary(done, args.dry_run)
    if skipped:
        print(f"not run (past --budget-s {args.budget_s:.0f}): {', '.join(skipped)}")
    print(f"total {time.monotonic() - started:.0f} s")
    wrong = [r for r in rows if r["kind"] == "solution" and r.get("error") != NOT_RUN
             and ("error" in r or not r.get("ok"))]
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
