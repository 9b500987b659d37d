"""Where matmul's time goes at small sizes under the engine's protocol (#21).

    PYTHONPATH=. python3 bench/matmul_host.py --out FILE.json [--shapes 1024x1024x1024,...]

Call 34 found the matmul solution and a TMA kernel at 10.4-10.5 us at 1024^3 under the engine's
protocol (cuBLAS 8.0) but 6.4 and 5.5 us under CUDA-graph replay (cuBLAS 5.4). Two explanations
fit: the host side of a Triton launch (if the device runs out of queued work, the start event
fires before the kernel is launched and the gap is timed), or the kernel running slower with L2
flushed. This separates them. For each way of launching the product it takes, per point:

- `engine_us`: the engine's protocol (read-flush of L2, then event | call | event);
- `engine_ahead_us`: the same with a ~100 us device-side sleep queued after the flush, so the
  host is far ahead of the device when the start event fires (only the kernel on a cold L2);
- `warm_ahead_us`: the sleep without the flush (the kernel on a warm L2, host ahead);
- `cudagraph_us`: do_bench_cudagraph;
- `host_us`: host time of one call, from 2000 calls issued back to back (no synchronisation).

Ways of launching: torch.matmul; the solution as it is; the solution's pointer-tile kernel at a
fixed tile through JITFunction (no autotuner) and through its CompiledKernel directly (no
binder); bench/matmul_variants.py's persistent TMA kernel with host-built descriptors; and the
same kernel building its descriptors on the device (tl.make_tensor_descriptor, scratch from a
cached buffer), through JITFunction and through its CompiledKernel.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from long_rows_tuning import load, save_rows  # noqa: E402
from matmul_variants import persistent_tiles  # noqa: E402  (the tile loop of the host-descriptor kernel)

_SCRATCH: dict[int, torch.Tensor] = {}


def cached_scratch(size: int, alignment: int, stream):
    """Triton's global-scratch allocator, served from one buffer per stream (grown when short):
    launches on one stream run one after another, so they can share it."""
    buf = _SCRATCH.get(stream)
    if buf is None or buf.numel() < size:
        buf = _SCRATCH[stream] = torch.empty(max(size, 1 << 16), device="cuda", dtype=torch.int8)
    return buf


@triton.jit
def tma_device_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, NUM_SMS: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[stride_am, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_bk, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, 1], block_shape=[BLOCK_M, BLOCK_N])
    persistent_tiles(a_desc, b_desc, c_desc, M, N, K, NUM_SMS, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M)


def device_tma(bm, bn, bk, warps, stages, direct: bool):
    state: dict = {}

    def run(a, b):
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), dtype=a.dtype, device=a.device)
        programs = min(state.setdefault("sms", torch.cuda.get_device_properties(a.device).multi_processor_count),
                       triton.cdiv(M, bm) * triton.cdiv(N, bn))
        triton.set_allocator(cached_scratch)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), programs, bm, bn, bk, 8)
        compiled = state.get("k") if direct else None
        if compiled is None:
            compiled = tma_device_kernel[(programs,)](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                                      NUM_SMS=programs, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                                      GROUP_M=8, num_warps=warps, num_stages=stages)
            state["k"] = compiled
        else:
            compiled[(programs, 1, 1)](*args)
        return c
    return run


def fixed_pointer(sol, bm, bn, bk, warps, stages, direct: bool):
    state: dict = {}

    def run(a, b):
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), dtype=a.dtype, device=a.device)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), 1, 1)
        compiled = state.get("k") if direct else None
        if compiled is None:
            state["k"] = sol.matmul_kernel.fn[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                                    b.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm,
                                                    BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, UPCAST=False,
                                                    num_warps=warps, num_stages=stages)
        else:
            compiled[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                           c.stride(1), bm, bn, bk, 8, False)
        return c
    return run


def ways(sol, shape):
    import matmul_variants

    M, N, K = shape
    small = M * N <= 2048 * 2048
    tile = (64, 128, 64, 4, 4) if small else (128, 256, 64, 8, 3)
    ptile = (64, 128, 64, 4, 4) if small else (128, 256, 64, 8, 3)
    return [
        ("torch.matmul", torch.matmul),
        ("solution as is", sol.matmul),
        (f"pointer {ptile} jit", fixed_pointer(sol, *ptile, direct=False)),
        (f"pointer {ptile} direct", fixed_pointer(sol, *ptile, direct=True)),
        (f"tma host desc {tile}", matmul_variants.tma(*tile, persistent=True)),
        (f"tma device desc {tile} jit", device_tma(*tile, direct=False)),
        (f"tma device desc {tile} direct", device_tma(*tile, direct=True)),
    ]


def _loop(fn, n: int, flush: bool, sleep_cycles: int) -> float:
    from studio.drills.harness.timing import _read_flush

    cache = torch.empty(256 << 18, dtype=torch.int32, device="cuda")
    pairs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    for start, end in pairs:
        if flush:
            _read_flush(cache)
        if sleep_cycles:
            torch.cuda._sleep(sleep_cycles)
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in pairs) * 1e3


def host_us(fn, n: int = 2000) -> float:
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def main() -> int:
    from studio.drills.harness import timing

    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", default="1024x1024x1024,2048x2048x2048,4096x4096x4096")
    parser.add_argument("--dtypes", default="bfloat16,float16")
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    sol = load("matmul", "solution")
    rows: list[dict] = []
    sleep_cycles = int(torch.cuda.get_device_properties(0).clock_rate * 1e3 * 100e-6)   # ~100 us
    for shape_s in args.shapes.split(","):
        shape = [int(v) for v in shape_s.split("x")]
        M, N, K = shape
        for dtype in args.dtypes.split(","):
            gen = torch.Generator(device="cuda").manual_seed(1)
            a = torch.randn(M, K, device="cuda", dtype=getattr(torch, dtype), generator=gen)
            b = torch.randn(K, N, device="cuda", dtype=getattr(torch, dtype), generator=gen)
            want = (a.float() @ b.float())
            for name, fn in ways(sol, shape):
                row = {"shape": shape_s, "dtype": dtype, "way": name}
                try:
                    got = fn(a, b)
                    got = fn(a, b).float()
                    torch.cuda.synchronize()
                    err = float((got - want).abs().max() / want.abs().max())
                    row["rel_err"] = err
                    if err > 2e-2:
                        row["error"] = f"wrong: relative max err {err:.3g}"
                    else:
                        call = (lambda f=fn: f(a, b))
                        row["engine_us"] = timing.quantiles(timing.time_baseline(call, 10, 20))[0] * 1e3
                        row["engine_ahead_us"] = _loop(call, args.n, True, sleep_cycles)
                        row["warm_ahead_us"] = _loop(call, args.n, False, sleep_cycles)
                        row["cudagraph_us"] = timing.quantiles(timing.time_stock(call, "cudagraph", 20))[0] * 1e3
                        row["host_us"] = host_us(call)
                except Exception as exc:  # noqa: BLE001 - a way that cannot compile or run here
                    row["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
                rows.append(row)
                print(json.dumps(row), flush=True)
            save_rows(args.out, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
