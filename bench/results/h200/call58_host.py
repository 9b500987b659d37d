"""Call 58: host time per call (Python + launches, no synchronisation) of the reference solutions that
looked host-bound under stock do_bench in call 57 (layernorm_backward, embedding_backward), against
their torch baseline: 300 calls enqueued back to back, wall time / 300, after a warm-up; the GPU time
of the same call (do_bench_cudagraph) beside it. PYTHONPATH=. python3 bench/results/h200/call58_host.py
"""
import importlib.util
import sys
import time

import torch
import triton.testing as tt

sys.path.insert(0, ".")
from studio.drills.catalog import get_drill  # noqa: E402


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


for drill_id, shape in (("layernorm_backward", [4096, 4096]), ("layernorm_backward", [32768, 768]),
                        ("embedding_backward", [8192, 50257, 768]), ("top_p_sampling", [1, 128256])):
    d = get_drill(drill_id)
    spec = load(f"s_{drill_id}", d.spec_module)
    sol = getattr(load(f"m_{drill_id}", d.solution), d.entry)
    case = {"name": "t", "shape": shape, "dtype": "bfloat16", "fill": "randn", "layout": "contiguous"}
    inputs = spec.make_inputs(case, torch.Generator().manual_seed(1), torch.device("cuda"))
    for name, fn in (("solution", sol), ("torch", spec.baseline)):
        for _ in range(20):
            fn(*inputs)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(300):
            fn(*inputs)
        host = (time.perf_counter() - t0) / 300 * 1e6
        torch.cuda.synchronize()
        gpu = tt.do_bench_cudagraph(lambda: fn(*inputs), rep=20) * 1e3
        print(f"{drill_id} {'x'.join(map(str, shape))} {name:9s} host {host:7.1f} us/call   GPU {gpu:7.1f} us", flush=True)
