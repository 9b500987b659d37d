"""GPU check of kernels/embedding_backward/solution.py: correctness, determinism, timings.

    cd <repo root> && python bench/embedding_backward_check.py [--no-compile] [--budget-s 85]
    cd <repo root> && python bench/embedding_backward_check.py --sweep     (tile knobs, ~1 min)
    (smoke test off-GPU: TRITON_INTERPRET=1 python bench/embedding_backward_check.py --device cpu --shapes 300x50x40,...)

1. Every bench shape of drill.yaml x (bfloat16, float32) x ids (zipf, uniform, hot,
   all_equal), plus the drill's gpu_cases: the solution against spec.reference (float64)
   under the drill's tolerance, and run twice (bitwise equal = deterministic). Prints one
   line per mismatch or nondeterministic result, then a summary line.
2. Timings, triton.testing.do_bench(rep=50, median, stock memset L2 flush), bf16 (then
   float32 while the budget lasts), zipf ids as the bench draws them (spec's zipf ids,
   seed 1; grads drawn on the device): solution, torch eager (spec.baseline), torch.compile(spec.baseline,
   dynamic=False, fresh per shape as bench/peers.py does), best peer / solution, and the
   solution's preprocessing alone (sort + bounds), to see what the table kernel costs.
"""

import argparse
import importlib.util
import sys
import time
from pathlib import Path

import torch
import triton
import yaml

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
DRILL = ROOT / "kernels" / "embedding_backward"


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile timings")
    parser.add_argument("--budget-s", type=float, default=85.0)
    parser.add_argument("--device", default="cuda", help="cpu: a smoke test under TRITON_INTERPRET=1")
    parser.add_argument("--shapes", default="", help="NxVxD,... instead of drill.yaml's bench shapes")
    parser.add_argument("--sweep", action="store_true",
                        help="only time the solution's TILE x GATHER x WARPS variants (bf16, two shapes)")
    args = parser.parse_args()
    started = time.monotonic()
    spec = load("emb_spec", DRILL / "spec.py")
    sol = load("emb_solution", DRILL / "solution.py")
    drill = yaml.safe_load((DRILL / "drill.yaml").read_text())
    shapes, dtypes = drill["bench"]["shapes"], drill["bench"]["dtypes"]
    tols = drill["tolerances"]
    if args.shapes:
        shapes = [[int(x) for x in s.split("x")] for s in args.shapes.split(",")]
    dev = torch.device(args.device)
    gpu = dev.type == "cuda"
    name = torch.cuda.get_device_name() if gpu else "CPU (interpreter smoke test)"
    print(f"{name}, torch {torch.__version__}, triton {triton.__version__}")
    if args.sweep:
        return sweep(sol, spec, [[8192, 128256, 4096], [8192, 50257, 768]] if not args.shapes else shapes,
                     dev, tols["bfloat16"])

    # ----- 1. correctness and determinism ---------------------------------------------------
    checked = bad = nondet = 0

    def check(label, idx, g, vocab, dtype_name):
        nonlocal checked, bad, nondet
        checked += 1
        try:
            out = sol.embedding_backward(idx, g, vocab)
            again = sol.embedding_backward(idx, g, vocab)
        except Exception as exc:  # noqa: BLE001 - reported, the sweep goes on
            bad += 1
            print(f"  ERROR {label}: {type(exc).__name__}: {str(exc)[:300]}")
            return
        ref = spec.reference(idx, g, vocab)
        tol = tols[dtype_name]
        problem = None
        if out.dtype != torch.float32 or tuple(out.shape) != tuple(ref.shape):
            problem = f"dtype/shape {out.dtype} {tuple(out.shape)}"
        else:
            diff = (out.double() - ref).abs()
            limit = tol["atol"] + tol["rtol"] * ref.abs()
            wrong = (diff > limit) | torch.isnan(out)
            if wrong.any():
                rows = wrong.any(dim=1).nonzero().flatten()
                problem = (f"{int(wrong.sum())} elements wrong in {rows.numel()} rows "
                           f"(first rows {rows[:5].tolist()}), max err {diff.max().item():.3g}")
            del diff, limit, wrong
        if problem:
            bad += 1
            print(f"  MISMATCH {label}: {problem}")
        if not torch.equal(out, again):
            nondet += 1
            print(f"  NONDETERMINISTIC {label}: max diff {(out - again).abs().max().item():.3g}")
        del out, again, ref

    gen_cuda = torch.Generator(device=dev)
    for shape in shapes:
        n, vocab, dim = shape
        for dtype_name in dtypes:
            gen_cuda.manual_seed(2)
            g = torch.randn(n, dim, device=dev, generator=gen_cuda).to(getattr(torch, dtype_name))
            for kind in ("zipf", "uniform", "hot", "all_equal"):
                idx = spec._ids(n, vocab, kind, torch.Generator().manual_seed(3)).to(dev)
                check(f"{'x'.join(map(str, shape))} {dtype_name} {kind}", idx, g, vocab, dtype_name)
            del g
        if gpu:
            torch.cuda.empty_cache()
    for case in (drill.get("gpu_cases") or []) if gpu and not args.shapes else []:
        idx, g, vocab = spec.make_inputs(case, torch.Generator().manual_seed(0), dev)
        check(f"gpu_case {case['name']}", idx, g, vocab, case["dtype"])
        del idx, g
        if gpu:
            torch.cuda.empty_cache()
    print(f"correctness: {checked} runs, {bad} mismatched, {nondet} nondeterministic "
          f"({time.monotonic() - started:.0f} s)")

    # ----- 2. timings ----------------------------------------------------------------------
    def bench(fn):
        if not gpu:                  # smoke test: one call, wall clock
            t = time.perf_counter()
            fn()
            return (time.perf_counter() - t) * 1e6
        return triton.testing.do_bench(fn, rep=50, return_mode="median") * 1000.0

    print("timings (us, median, do_bench rep=50, L2 flushed), zipf ids:")
    print(f"  {'N x V x D':>20} {'dtype':>8} {'solution':>9} {'(prep)':>8} {'eager':>8} "
          f"{'compile':>8} {'best/sol':>8} {'floor':>7}")
    for dtype_name in dtypes:
        for shape in shapes:
            if time.monotonic() - started > args.budget_s:
                print(f"  (budget spent: {dtype_name} {'x'.join(map(str, shape))} and later not timed)")
                break
            n, vocab, dim = shape
            # The bench's ids (spec.make_inputs draws them first from seed 1); the grads'
            # values do not matter to the timings, so they are drawn on the device (faster).
            idx = spec._ids(n, vocab, "zipf", torch.Generator().manual_seed(1)).to(dev)
            g = torch.randn(n, dim, device=dev).to(getattr(torch, dtype_name))
            try:
                t_sol = bench(lambda: sol.embedding_backward(idx, g, vocab))
                n_counters = triton.cdiv(n, sol.CHUNK) * triton.cdiv(dim, min(1024, triton.next_power_of_2(dim)))
                t_prep = bench(lambda: sol._bounds(sol._sort_ids(idx, vocab)[0], n, vocab, n_counters))
            except Exception as exc:  # noqa: BLE001
                print(f"  {'x'.join(map(str, shape))} {dtype_name}: solution failed: {type(exc).__name__}: {exc}")
                continue
            t_eager = bench(lambda: spec.baseline(idx, g, vocab))
            t_comp = float("nan")
            if gpu and not args.no_compile:
                try:
                    torch._dynamo.reset()      # a fresh compile per shape, as bench/peers.py
                    compiled = torch.compile(spec.baseline, dynamic=False)
                    compiled(idx, g, vocab)
                    torch.cuda.synchronize()
                    t_comp = bench(lambda: compiled(idx, g, vocab))
                except Exception as exc:  # noqa: BLE001
                    print(f"  torch.compile failed: {type(exc).__name__}: {str(exc)[:200]}")
            best = min(t_eager, t_comp) if t_comp == t_comp else t_eager
            floor = 4 * vocab * dim / 4.25e12 * 1e6      # the table write at 4.25 TB/s
            print(f"  {'x'.join(map(str, shape)):>20} {dtype_name:>8} {t_sol:9.1f} {t_prep:8.1f} "
                  f"{t_eager:8.1f} {t_comp:8.1f} {best / t_sol:8.2f} {floor:7.0f}", flush=True)
            idx = g = None
            if gpu:
                torch.cuda.empty_cache()
    print(f"done in {time.monotonic() - started:.0f} s")


def sweep(sol, spec, shapes, dev, tol):
    """The solution's tile knobs (module constants), checked and timed per bf16 zipf shape."""
    import itertools
    gpu = dev.type == "cuda"
    default = (sol.TILE, sol.GATHER, sol.WARPS)
    print("sweep: us per TILE, GATHER, WARPS (bf16, zipf ids); default", default)
    for shape in shapes:
        n, vocab, dim = shape
        idx = spec._ids(n, vocab, "zipf", torch.Generator().manual_seed(1)).to(dev)
        g = torch.randn(n, dim, device=dev).to(torch.bfloat16)
        ref = spec.reference(idx, g, vocab)
        for tile, gather, warps in itertools.product((4096, 8192, 16384), (4096, 8192), (4, 8)):
            sol.TILE, sol.GATHER, sol.WARPS = tile, gather, warps
            try:
                ok = torch.allclose(sol.embedding_backward(idx, g, vocab).double(), ref,
                                    atol=tol["atol"], rtol=tol["rtol"])
                if gpu:
                    us = triton.testing.do_bench(lambda: sol.embedding_backward(idx, g, vocab), rep=50,
                                                 return_mode="median") * 1000.0
                else:
                    us = float("nan")
                print(f"  {'x'.join(map(str, shape)):>18} TILE {tile:5d} GATHER {gather:5d} WARPS {warps}: "
                      f"{us:8.1f} us{'' if ok else '  WRONG'}", flush=True)
            except Exception as exc:  # noqa: BLE001
                print(f"  {'x'.join(map(str, shape))} {tile} {gather} {warps}: {type(exc).__name__}: {exc}")
        ref = None
    sol.TILE, sol.GATHER, sol.WARPS = default


if __name__ == "__main__":
    main()
