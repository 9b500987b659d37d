"""GPU check of kernels/top_p_sampling/solution.py: exactness at the bench shapes, then timing.

Run from the repository root on a CUDA machine:  python bench/top_p_sampling_check.py

1. For every bench shape of drill.yaml, dtypes bfloat16 and float32, several inputs (randn
   with random p, two seeds; ties on a 0.5 grid; p = 1; tiny p; peaked logits), the
   solution's ids are compared exactly with spec.reference; mismatches are printed.
   The inputs follow spec.make_inputs' rules (p midway between two prefix sums, u at the
   midpoint of an eligible token's interval), built on the GPU in a vectorised form;
   spec.make_inputs itself is used too where the shape is small enough to be quick.
2. Times the solution, spec.baseline and torch.compile(spec.baseline) (fresh, dynamic=False,
   per shape, as bench/peers.py does) with triton.testing.do_bench (rep=50, median, L2
   flushed), plus the solution under CUDA-graph replay (do_bench_cudagraph); one line per
   shape with the ratio best peer / solution, and the candidate-list length per row (max /
   mean). Each static torch.compile takes seconds, so compiling stops once TOPP_BUDGET_S
   seconds (default 75) have passed: those columns read n/a (listed at the end).
   TOPP_COMPILE=dynamic compiles once per dtype (dynamic=True) instead; =off skips it.

Env: TOPP_DEVICE=cpu runs tiny shapes under TRITON_INTERPRET=1 (set it yourself) to test this
script without a GPU (no do_bench: a plain timer; torch.compile off unless TOPP_COMPILE is set).
"""

import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

import torch
import triton
import yaml

T0 = time.monotonic()
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DRILL = ROOT / "kernels" / "top_p_sampling"
DEVICE = torch.device(os.environ.get("TOPP_DEVICE", "cuda"))
BUDGET_S = float(os.environ.get("TOPP_BUDGET_S", "75"))
ON_GPU = DEVICE.type == "cuda"


def _load(name, path):
    s = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


spec = _load("topp_spec", DRILL / "spec.py")
sol = _load("topp_solution", DRILL / "solution.py")
drill = yaml.safe_load((DRILL / "drill.yaml").read_text())
SHAPES = drill["bench"]["shapes"] if ON_GPU else [[1, 3000], [3, 2000], [2, 700]]
DTYPES = ["bfloat16", "float32"]


def fast_inputs(M, V, dtype, seed, kind="randn", p_mode="random", scale=3.0):
    """spec.make_inputs' rules, vectorised over the rows, on DEVICE."""
    g = torch.Generator(device=DEVICE).manual_seed(seed)
    if kind == "randn":
        vals = scale * torch.randn(M, V, generator=g, device=DEVICE)
    elif kind == "ties":
        vals = torch.randint(-4, 5, (M, V), generator=g, device=DEVICE).float() * 0.5
    else:
        vals = torch.full((M, V), 1.5, device=DEVICE)
    vals = vals.to(getattr(torch, dtype))
    probs, _ = spec.sorted_probs(vals)
    cum = probs.cumsum(-1)
    eligible = (probs >= spec.ELIGIBLE).sum(-1).clamp_min(1)
    r1 = torch.rand(M, generator=g, device=DEVICE, dtype=torch.float64)
    r2 = torch.rand(M, generator=g, device=DEVICE, dtype=torch.float64)

    def at(idx):                       # cum[i, idx[i]], 0 where idx < 0
        return torch.where(idx >= 0, cum.gather(1, idx.clamp_min(0)[:, None])[:, 0], 0.0)

    if p_mode == "one":
        K = eligible
        p = torch.ones(M, dtype=torch.float64, device=DEVICE)
        S = torch.ones(M, dtype=torch.float64, device=DEVICE)
    elif p_mode == "tiny":
        K = torch.ones_like(eligible)
        p = torch.full((M,), 1e-6, dtype=torch.float64, device=DEVICE)
        S = at(K - 1)
    else:
        K = torch.minimum((r1 * eligible).long(), eligible - 1) + 1
        p = (at(K - 2) + at(K - 1)) / 2
        S = at(K - 1)
    n = torch.minimum(K, eligible)
    k = torch.minimum((r2 * n).long(), n - 1)
    u = (at(k - 1) + at(k)) / 2 / S
    return vals.contiguous(), p.float(), u.float()


VARIANTS = [("randn", "random", 3.0, 0), ("randn", "random", 3.0, 1), ("randn", "random", 8.0, 2),
            ("ties", "random", 3.0, 3), ("ties", "one", 3.0, 4), ("randn", "one", 3.0, 5),
            ("randn", "tiny", 3.0, 6), ("randn", "random", 0.5, 7)]


def check():
    bad = total = 0
    for M, V in SHAPES:
        for dtype in DTYPES:
            line = []
            for kind, p_mode, scale, seed in VARIANTS:
                inputs = fast_inputs(M, V, dtype, seed, kind, p_mode, scale)
                got = sol.top_p_sampling(*inputs)
                ref = spec.reference(*inputs).long()
                total += 1
                if not torch.equal(got, ref):
                    bad += 1
                    rows = (got != ref).nonzero()[:, 0].tolist()
                    line.append(f"{kind}/{p_mode}/s{scale}/seed{seed}: {len(rows)} rows differ, "
                                f"e.g. row {rows[0]} got {got[rows[0]].item()} want {ref[rows[0]].item()}")
            if M * V <= 4_200_000:          # spec.make_inputs itself (CPU-built, a few seconds at most)
                for case in ({"shape": [M, V], "dtype": dtype},
                             {"shape": [M, V], "dtype": dtype, "kind": "ties", "layout": "transposed"}):
                    inputs = spec.make_inputs(case, torch.Generator().manual_seed(11), DEVICE)
                    got = sol.top_p_sampling(*inputs)
                    ref = spec.reference(*inputs).long()
                    total += 1
                    if not torch.equal(got, ref):
                        bad += 1
                        line.append(f"make_inputs {case}: {(got != ref).sum().item()} rows differ")
            status = "ok" if not line else "MISMATCH"
            print(f"check {M}x{V} {dtype}: {status}" + "".join(f"\n    {x}" for x in line), flush=True)
    print(f"exactness: {total - bad}/{total} input sets match spec.reference exactly "
          f"({time.monotonic() - T0:.0f} s so far)", flush=True)
    return bad


def candidates(inputs):
    """(max, mean) candidate-list length per row, read from the solution's scratch."""
    seen = {}
    real_empty = sol.torch.empty

    def spy(*a, **k):
        t = real_empty(*a, **k)
        if k.get("dtype") == torch.int32:
            seen["ws"] = t
        return t

    sol.torch.empty = spy
    try:
        sol.top_p_sampling(*inputs)
    finally:
        sol.torch.empty = real_empty
    M, V = inputs[0].shape
    P = sol._config(M, V, inputs[0].device)[0]
    C = seen["ws"].view(M, -1)[:, 2 * P + 3].float()
    return int(C.max().item()), float(C.mean().item())


def bench(fn):
    if ON_GPU:
        return triton.testing.do_bench(fn, rep=50, return_mode="median") * 1e3
    fn()
    times = []
    for _ in range(3):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def bench_graph(fn):
    if not ON_GPU:
        return float("nan")
    try:
        return triton.testing.do_bench_cudagraph(fn, rep=50, return_mode="median") * 1e3
    except Exception as exc:  # noqa: BLE001
        print(f"    cudagraph timing failed: {type(exc).__name__}: {str(exc)[:200]}")
        return float("nan")


def timing():
    mode = os.environ.get("TOPP_COMPILE", "static" if ON_GPU else "off")   # static | dynamic | off
    dynamic_fn = {}
    skipped = []
    print(f"\n{'shape':>12} {'dtype':>9} {'sol us':>8} {'graph us':>8} {'torch us':>9} {'compile us':>10} "
          f"{'best/sol':>8}  candidates max/mean")
    for dtype in DTYPES:                     # bfloat16 first: the dtype of the peers table
        for M, V in SHAPES:
            inputs = fast_inputs(M, V, dtype, 1)
            ref = spec.reference(*inputs).long()
            sol_us = bench(lambda: sol.top_p_sampling(*inputs))
            graph_us = bench_graph(lambda: sol.top_p_sampling(*inputs))
            eager_us = bench(lambda: spec.baseline(*inputs))
            comp_us = float("nan")
            if mode != "off" and time.monotonic() - T0 >= BUDGET_S:
                skipped.append(f"{M}x{V} {dtype}")
            elif mode != "off":
                try:
                    if mode == "dynamic":      # one compile per dtype, shapes symbolic
                        if dtype not in dynamic_fn:
                            torch._dynamo.reset()
                            dynamic_fn[dtype] = torch.compile(spec.baseline, dynamic=True)
                        compiled = dynamic_fn[dtype]
                    else:                      # as bench/peers.py: fresh, static, per shape
                        torch._dynamo.reset()
                        compiled = torch.compile(spec.baseline, dynamic=False)
                    out = compiled(*inputs)
                    if not torch.equal(out.long(), ref):
                        print(f"    note: torch.compile's output differs from the reference at {M}x{V} {dtype}")
                    comp_us = bench(lambda: compiled(*inputs))
                except Exception as exc:  # noqa: BLE001
                    print(f"    torch.compile failed: {type(exc).__name__}: {str(exc)[:200]}")
            best = min(x for x in (eager_us, comp_us) if x == x)
            cmax, cmean = candidates(inputs)
            comp = f"{comp_us:10.1f}" if comp_us == comp_us else f"{'n/a':>10}"
            print(f"{M:>5}x{V:<6} {dtype:>9} {sol_us:8.1f} {graph_us:8.1f} {eager_us:9.1f} {comp} "
                  f"{best / sol_us:8.2f}  {cmax}/{cmean:.0f}", flush=True)
    if skipped:
        print(f"torch.compile not timed (past TOPP_BUDGET_S={BUDGET_S:.0f} s; best/sol uses eager there): "
              + ", ".join(skipped))


def graph_replay_is_exact():
    """The solution captured in a CUDA graph and replayed gives the same ids (no host sync)."""
    if not ON_GPU:
        return
    M, V = SHAPES[0]
    inputs = fast_inputs(M, V, "bfloat16", 9)
    sol.top_p_sampling(*inputs)
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        sol.top_p_sampling(*inputs)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = sol.top_p_sampling(*inputs)
    g.replay()
    torch.cuda.synchronize()
    same = torch.equal(out, spec.reference(*inputs).long())
    print(f"cuda graph replay {M}x{V} bf16: {'ok' if same else 'MISMATCH'}")


if __name__ == "__main__":
    print(f"{torch.cuda.get_device_name() if ON_GPU else 'cpu (interpreter)'}, torch {torch.__version__}, "
          f"triton {triton.__version__}")
    bad = check()
    graph_replay_is_exact()
    timing()
    print(f"total {time.monotonic() - T0:.0f} s; {'ALL EXACT' if not bad else f'{bad} MISMATCHING INPUT SETS'}")
