"""Why do 64-134 MB kernels reach only ~80% of copy bandwidth under do_bench?

Hypothesis: do_bench flushes L2 with a 256 MiB memset, which leaves L2 full of *dirty*
lines; the timed kernel then pays for writing them back. A read-based flush (a reduction
over the same 256 MiB) leaves clean lines. A second effect: if the CPU launch of the
timed call takes longer than the flush, the GPU idles inside the timed interval; a short
`torch.cuda._sleep` after the flush hides that. This script times the same calls under
the three flushes. Run on a GPU:

    PYTHONPATH=. python bench/flush_experiment.py
"""

from __future__ import annotations

import json
import sys

import torch
import triton
from triton import runtime
from triton.testing import do_bench


def timed(fn, mode: str) -> float:
    driver = runtime.driver.active
    original = driver.clear_cache
    def read_flush(cache):
        cache.sum()  # reads all 256 MiB: L2 ends up holding clean lines

    def read_flush_sleep(cache):
        cache.sum()
        torch.cuda._sleep(20_000)  # ~10 us at ~2 GHz: the launch of fn() is queued by then

    if mode == "read":
        driver.clear_cache = read_flush
    elif mode == "read+sleep":
        driver.clear_cache = read_flush_sleep
    try:
        return do_bench(fn, warmup=100, rep=300, return_mode="median")
    finally:
        driver.clear_cache = original


def main() -> int:
    sys.path.insert(0, ".")
    import importlib.util

    def load(name):
        spec = importlib.util.spec_from_file_location(name, f"kernels/{name}/solution.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    softmax, rmsnorm = load("softmax").softmax, load("rmsnorm").rmsnorm
    big = torch.empty(1 << 28, device="cuda")
    dst_big = torch.empty_like(big)
    peak = 2 * big.numel() * 4 / (do_bench(lambda: dst_big.copy_(big), warmup=50, rep=300, return_mode="median") * 1e-3) / 1e9
    del big, dst_big
    rows = []
    for (m, n, dtype) in ((4096, 4096, torch.float16), (4096, 4096, torch.float32), (4096, 8192, torch.float16),
                          (4096, 256, torch.float16), (4096, 1024, torch.float16)):
        x = torch.randn(m, n, device="cuda", dtype=dtype)
        y = torch.empty_like(x)
        w = torch.randn(n, device="cuda", dtype=dtype)
        nbytes = 2 * x.numel() * x.element_size()
        for name, fn in (("copy", lambda: y.copy_(x)), ("softmax", lambda: softmax(x)),
                         ("torch.softmax", lambda: torch.softmax(x, -1)),
                         ("rmsnorm", lambda: rmsnorm(x, w, 1e-6)),
                         ("torch rms_norm", lambda: torch.nn.functional.rms_norm(x, (n,), w, 1e-6))):
            row = {"op": name, "shape": [m, n], "dtype": str(dtype).replace("torch.", "")}
            for mode in ("memset (do_bench)", "read", "read+sleep"):
                ms = timed(fn, mode.split(" ")[0] if mode.startswith("memset") else mode)
                row[mode] = {"us": round(ms * 1000, 2), "pct_of_copy_bw": round(100 * nbytes / (ms * 1e-3) / 1e9 / peak, 1)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(json.dumps({"copy_gbps": round(peak), "device": torch.cuda.get_device_name(),
                      "torch": torch.__version__, "triton": triton.__version__}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
