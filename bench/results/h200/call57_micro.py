"""Call 57 micro-measurements (H200), run from the repo root: PYTHONPATH=. python3 bench/results/h200/call57_micro.py

1. embedding_backward's preprocessing pieces, GPU time (do_bench_cudagraph) and with launches (do_bench):
   _rank_kernel sort (N <= 8192), torch.sort of int32 ids (stable), _bounds_kernel; V = 128256, zipf ids.
2. layernorm_backward at 4096 x 12288 bf16: chunked / fused launch shapes not in call 56's list,
   each checked against spec.reference, timed the engine's way (L2 flushed by a 256 MiB read).
"""
import importlib.util
import sys

import torch
import triton.testing as tt

sys.path.insert(0, ".")
from studio.drills.catalog import get_drill  # noqa: E402
from studio.drills.harness import timing  # noqa: E402


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


d = get_drill("embedding_backward")
sol = load("emb_sol", d.solution)
spec = load("emb_spec", d.spec_module)
print("embedding_backward preprocessing, us (graph = do_bench_cudagraph, plain = do_bench)")
for n in (4096, 8192, 16384, 32768):
    case = {"name": "t", "shape": [n, 128256, 64], "dtype": "bfloat16", "fill": "randn", "layout": "contiguous"}
    idx, g, vocab = spec.make_inputs(case, torch.Generator().manual_seed(1), torch.device("cuda"))
    rows = {}
    if n <= sol.RANK_MAX:
        rows["rank kernel"] = lambda: sol._sort_ids(idx, vocab)
    rows["torch.sort int32 stable"] = lambda: torch.sort(idx.to(torch.int32), stable=True)
    rows["torch.sort int64"] = lambda: torch.sort(idx)
    sid = sol._sort_ids(idx, vocab)[0]
    rows["bounds kernel"] = lambda: sol._bounds(sid, n, vocab, 64)
    for name, fn in rows.items():
        fn(); torch.cuda.synchronize()
        print(f"  N={n:6d} {name:26s} graph {tt.do_bench_cudagraph(fn, rep=20) * 1e3:7.1f}  plain {tt.do_bench(fn, rep=20) * 1e3:7.1f}", flush=True)

d = get_drill("layernorm_backward")
sol = load("lnb_sol", d.solution)
spec = load("lnb_spec", d.spec_module)
case = {"name": "t", "shape": [4096, 12288], "dtype": "bfloat16", "fill": "randn", "layout": "contiguous"}
inputs = spec.make_inputs(case, torch.Generator().manual_seed(1), torch.device("cuda"))
ref = spec.reference(*inputs)
tol = d.tolerances["bfloat16"]
C = sol.LaunchConfig
print("layernorm_backward 4096x12288 bf16, engine protocol")
print(f"  default {sol.launch_config(4096, 12288, 132, 2)}")
for cfg in (C(True, 4, 2048, 8, 3, 1), C(True, 4, 2048, 8, 3, 2), C(True, 4, 2048, 8, 4, 1), C(True, 8, 2048, 16, 3, 1),
            C(True, 2, 4096, 8, 3, 1), C(True, 4, 4096, 16, 3, 1), C(True, 2, 2048, 4, 3, 2), C(True, 1, 4096, 8, 3, 2),
            C(False, 1, 16384, 16, 3, 1), C(False, 1, 16384, 32, 2, 1)):
    try:
        out = sol.run(*inputs, cfg)
        ok = bool(torch.isclose(out.double(), ref.double(), atol=tol.atol, rtol=tol.rtol).all())
        us = timing.quantiles(timing.time_baseline(lambda: sol.run(*inputs, cfg), 10, 20))[0] * 1e3
        print(f"  {cfg}: {us:7.1f} us {'ok' if ok else 'WRONG'}", flush=True)
    except Exception as exc:  # noqa: BLE001
        print(f"  {cfg}: {type(exc).__name__}: {str(exc)[:150]}", flush=True)
