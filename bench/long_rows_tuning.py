"""Launch shapes for long rows in the softmax / layernorm / rmsnorm / softmax_backward reference
solutions (#21).

    PYTHONPATH=. python3 bench/long_rows_tuning.py --out FILE.json [--shapes 1024x32768,...]

On the H200, bench/peers.py found the three solutions at 0.66-0.87x the best peer at
1024x32768 (Liger or torch.compile): rows of more than MAX_FUSED_N = 16384 columns go to the
looped kernel, which reads each row twice. This times, per shape and dtype, the solution as
it is against its own kernels launched other ways: the fused rows kernel with the whole row in
registers (BLOCK_N = next power of two of N, one row per program, 8/16/32 warps) and the
looped kernel with other chunk sizes and warps. With --no-looped and shapes of few rows
(1..128 tokens: decode), the number of warps given to one row. With --short-rows (rows of
256-2048 columns), rows per program x warps for the fused kernel. Each variant is checked against the drill's
baseline first; timing is the engine's (L2 flushed by a read) and do_bench_cudagraph.
Prints the best variant per shape and writes every row to --out.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def load(drill: str, what: str):
    spec = importlib.util.spec_from_file_location(f"_lrt_{drill}_{what}", REPO / "kernels" / drill / f"{what}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_and_time(row: dict, fn, inputs, want, tol: float, rep_ms: float) -> dict:
    """Fill `row` for one variant: its max abs error against `want`, then (when within `tol`)
    its engine-protocol and do_bench_cudagraph medians in us; `error` when it is wrong or
    cannot compile or run."""
    import torch

    from studio.drills.harness import timing

    try:
        got = fn(*inputs)
        got = (torch.stack(got) if isinstance(got, tuple) else got).float()   # (h, y) of residual_rmsnorm
        torch.cuda.synchronize()
        err = float((got - want).abs().max())
        row["max_abs_err"] = err
        if not err < tol:
            row["error"] = f"wrong: max abs err {err:.3g}"
        else:
            call = (lambda f=fn, a=inputs: f(*a))
            row["engine_us"] = timing.quantiles(timing.time_baseline(call, 10, rep_ms))[0] * 1e3
            row["cudagraph_us"] = timing.quantiles(timing.time_stock(call, "cudagraph", rep_ms))[0] * 1e3
    except Exception as exc:  # noqa: BLE001 - a launch shape that cannot compile or run
        row["error"] = f"{type(exc).__name__}: {str(exc)[:160]}"
    return row


def bf16_tolerance(want) -> float:
    """A few bf16 steps of the largest output: 2% of max |want| + 0.05 (a flat 0.05 refused
    right answers near 16)."""
    return 0.02 * float(want.abs().max()) + 0.05


def time_variants(row: dict, variants, inputs, want, rep_ms: float) -> tuple[list[dict], dict | None]:
    """check_and_time every (name, fn) of `variants` (each row starts as `row` plus its
    name), printing each row as JSON; returns the rows and the fastest under the engine's
    protocol (None when every variant failed)."""
    rows, best = [], None
    for name, fn in variants:
        result = check_and_time({**row, "variant": name}, fn, inputs, want, bf16_tolerance(want), rep_ms)
        if "engine_us" in result and (best is None or result["engine_us"] < best["engine_us"]):
            best = result
        rows.append(result)
        print(json.dumps(result), flush=True)
    return rows, best


def point_inputs(spec, shape: list[int], dtype: str, device: str = "cuda"):
    """The drill's inputs for one point (randn, contiguous, seed 1) and its baseline's output
    in float32: what every variant is checked against. A baseline that returns several tensors
    gives them stacked, or flattened end to end when their shapes differ (layernorm_backward's
    dx, dw, db)."""
    import torch

    case = {"name": "t", "shape": list(shape), "dtype": dtype, "fill": "randn", "layout": "contiguous"}
    inputs = spec.make_inputs(case, torch.Generator().manual_seed(1), torch.device(device))
    want = spec.baseline(*inputs)
    if isinstance(want, tuple):
        same = all(w.shape == want[0].shape for w in want)
        want = torch.stack(want) if same else torch.cat([w.reshape(-1).float() for w in want])
    return inputs, want.float()


def time_point(label: str, row: dict, variants, inputs, want, rep_ms: float, rows: list[dict], out: str,
               note: str = "") -> None:
    """time_variants for one point, its rows added to `rows` and saved to `out` (save_rows),
    and a `BEST label: ...` line (`note` appended) for the fastest under the engine's protocol."""
    timed, best = time_variants(row, variants, inputs, want, rep_ms)
    rows += timed
    if best:
        print(f"BEST {label}: {best['variant']} engine {best['engine_us']:.1f} us "
              f"cudagraph {best['cudagraph_us']:.1f} us{note}", flush=True)
    save_rows(out, rows)


def save_rows(path: str, rows: list[dict]) -> None:
    """Write every timed row so far to `path` with the command, device and versions: called after
    each shape, so a run cut short by a time limit keeps what it measured."""
    import torch
    import triton

    device = torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu"
    Path(path).write_text(json.dumps({"command": " ".join(sys.argv), "device": device,
                                      "torch": torch.__version__, "triton": triton.__version__,
                                      "rows": rows}, indent=1))


def variants(drill: str, sol, N: int, with_looped: bool = True, short_rows: bool = False):
    """(name, fn(inputs) -> y) for each way of launching the drill's kernels at row length N."""
    import torch
    import triton

    def fused(warps, block_m=1, weights_first=False):
        first = {"WB_FIRST": weights_first} if drill == "layernorm" else {}
        block_n = triton.next_power_of_2(N)

        def run(x, *rest):
            M = x.shape[0]
            y = torch.empty_like(x)
            grid = (triton.cdiv(M, block_m),)
            if drill == "softmax":
                sol.softmax_rows_kernel[grid](x, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                                              BLOCK_M=block_m, BLOCK_N=block_n, num_warps=warps)
            elif drill == "softmax_backward":        # x is y, rest is (dy,)
                dy, = rest
                sol.softmax_bwd_rows_kernel[grid](x, dy, y, M, N, x.stride(0), x.stride(1), dy.stride(0),
                                                  dy.stride(1), y.stride(0), BLOCK_M=block_m, BLOCK_N=block_n,
                                                  num_warps=warps)
            elif drill == "rmsnorm":
                w, eps = rest
                sol.rmsnorm_rows_kernel[grid](x, w, y, M, N, x.stride(0), x.stride(1), y.stride(0), w.stride(0),
                                              eps, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=warps)
            else:
                w, b, eps = rest
                sol.layernorm_rows_kernel[grid](x, w, b, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                                                w.stride(0), b.stride(0), eps, BLOCK_M=block_m, BLOCK_N=block_n,
                                                num_warps=warps, **first)
            return y
        return run

    def looped(block, warps, head=None):
        def run(x, *rest):
            M = x.shape[0]
            y = torch.empty_like(x)
            if drill == "softmax_backward":          # the first `head` columns stay in registers
                dy, = rest
                sol.softmax_bwd_looped_kernel[(M,)](x, dy, y, N, x.stride(0), x.stride(1), dy.stride(0),
                                                    dy.stride(1), y.stride(0), BLOCK_N=block, HEAD=head,
                                                    num_warps=warps)
            elif drill == "softmax":
                sol.softmax_looped_kernel[(M,)](x, y, N, x.stride(0), x.stride(1), y.stride(0),
                                                BLOCK_N=block, num_warps=warps)
            elif drill == "rmsnorm":
                w, eps = rest
                sol.rmsnorm_looped_kernel[(M,)](x, w, y, N, x.stride(0), x.stride(1), y.stride(0), w.stride(0),
                                                eps, BLOCK_N=block, num_warps=warps)
            else:
                w, b, eps = rest
                sol.layernorm_looped_kernel[(M,)](x, w, b, y, N, x.stride(0), x.stride(1), y.stride(0),
                                                  w.stride(0), b.stride(0), eps, BLOCK_N=block, num_warps=warps)
            return y
        return run

    out = [("solution as is", lambda *a: getattr(sol, drill)(*a))]
    if short_rows:
        # several rows per program: 1-32 rows x 1-16 warps, 2-64 values a thread
        block_n = triton.next_power_of_2(N)
        for block_m in (1, 2, 4, 8, 16, 32):
            for warps in (1, 2, 4, 8, 16):
                if 2 <= block_m * block_n // (32 * warps) <= 64:
                    out.append((f"fused BLOCK_M={block_m} BLOCK_N={block_n} warps={warps}", fused(warps, block_m)))
        return out
    if N <= 32768:
        out += [(f"fused BLOCK_N={triton.next_power_of_2(N)} warps={w}", fused(w)) for w in (4, 8, 16, 32)]
        if drill == "softmax_backward" and N <= 8192:
            out += [(f"fused BLOCK_M=2 BLOCK_N={triton.next_power_of_2(N)} warps={w}", fused(w, 2))
                    for w in (4, 8, 16)]
        if not with_looped and drill == "layernorm":     # few rows: weight and bias loaded first
            out += [(f"fused BLOCK_N={triton.next_power_of_2(N)} warps={w} weights first", fused(w, 1, True))
                    for w in (4, 8, 16, 32)]
    if with_looped and drill == "softmax_backward":
        # reads the row past `head` twice (the second time mostly from L2); a small head keeps
        # few registers a thread, so more programs fit on an SM
        out += [(f"looped BLOCK_N={b} HEAD={h} warps={w}", looped(b, w, h))
                for b in (1024, 2048, 4096) for h in (b, 4 * b) for w in (4, 8, 16) if h < N]
    elif with_looped:
        out += [(f"looped BLOCK_N={b} warps={w}", looped(b, w)) for b in (2048, 4096, 8192) for w in (4, 8, 16)]
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--drills", default="softmax,rmsnorm,layernorm")
    parser.add_argument("--shapes", default="1024x32768,256x131072,1024x16384,4096x16384")
    parser.add_argument("--dtypes", default="bfloat16,float32")
    parser.add_argument("--rep-ms", type=float, default=30.0)
    parser.add_argument("--no-looped", action="store_true", help="only the fused kernel's launch shapes "
                        "(few rows: decode-time M of 1 to 128 tokens)")
    parser.add_argument("--short-rows", action="store_true", help="the fused kernel with several rows per "
                        "program (rows of 256-2048 columns: BLOCK_M x warps)")
    args = parser.parse_args()
    import torch

    rows = []
    for drill in args.drills.split(","):
        spec, sol = load(drill, "spec"), load(drill, "solution")
        for shape in args.shapes.split(","):
            M, N = map(int, shape.split("x"))
            for dtype in args.dtypes.split(","):
                inputs, want = point_inputs(spec, [M, N], dtype)
                time_point(f"{drill} {shape} {dtype}", {"drill": drill, "shape": [M, N], "dtype": dtype},
                           variants(drill, sol, N, not args.no_looped, args.short_rows), inputs, want,
                           args.rep_ms, rows, args.out)
                del inputs, want
                torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
