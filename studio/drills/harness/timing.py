"""GPU timing and device facts.

Timing follows the drill protocol: triton.testing.do_bench, which warms up first (so JIT
compilation is excluded), clears the L2 cache before every timed call, and times each
call with CUDA events; we report the median and the 20th/80th percentiles. The torch
baseline is timed the same way on the same inputs in the same run, and the two are
interleaved (`time_pair`: kernel, torch, torch, kernel, kernel, torch, each round's
samples pooled per side), so a drift of clocks or of the machine during the point's
~1 s lands on both sides instead of on whichever was timed second.

One change to do_bench: its flush is a 256 MiB memset, which leaves L2 full of dirty
lines that the timed kernel then has to write back to HBM. That cost ~4 us per call and
held a 67 MB copy to ~80% of copy bandwidth (bench/flush_experiment.py, recorded in
bench/results/flush_experiment.md). We flush by *reading* the same 256 MiB buffer, which
evicts everything and leaves clean lines; kernel and torch baseline both get it.

Device facts (name, copy bandwidth, versions) are measured once per device and software
stack and cached as JSON in the runner's cache directory. Copy bandwidth is a large
device-to-device copy, counting bytes read plus bytes written; it is the "peak" that
drill bandwidths are reported against.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import torch

QUANTILES = [0.5, 0.2, 0.8]
COPY_BYTES = 1 << 30          # each side of the bandwidth probe copy
CACHE_FILE = "drill_device_facts.json"


def time_call(fn: Callable[[], Any], warmup_ms: int = 100,
              rep_ms: int = 300) -> tuple[float, float, float]:
    """(median, p20, p80) in milliseconds of fn() on the current CUDA device.

    Longer than do_bench's defaults (25 ms warm-up, 100 ms of repeats): kernels of a few
    microseconds need the clocks settled and ~3000 samples for a median stable to ~1%.
    """
    from triton import runtime
    from triton.testing import do_bench

    driver = runtime.driver.active
    memset_flush = driver.clear_cache
    driver.clear_cache = _read_flush
    try:
        median, p20, p80 = do_bench(fn, warmup=warmup_ms, rep=rep_ms, quantiles=QUANTILES)
    finally:
        driver.clear_cache = memset_flush
    return float(median), float(p20), float(p80)


def time_pair(fn: Callable[[], Any], ref: Callable[[], Any], rounds: int = 3,
              rep_ms: int = 100) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """((median, p20, p80) of fn, (median, p20, p80) of ref) in ms, timed in interleaved rounds.

    Round order A B, B A, A B, ...; each round is one do_bench call (rep_ms of repeats, L2
    read-flushed before every call) and its per-call times are pooled per side. The first
    call of each side warms up for 100 ms (clocks settle, JIT and autotuning excluded),
    later ones for 10 ms.
    """
    samples: dict[int, list[float]] = {0: [], 1: []}
    fns = (fn, ref)
    for r in range(rounds):
        for side in ((0, 1) if r % 2 == 0 else (1, 0)):
            samples[side].extend(_samples(fns[side], 100 if r < 2 else 10, rep_ms))
    return _quantiles(samples[0]), _quantiles(samples[1])


def _samples(fn: Callable[[], Any], warmup_ms: int, rep_ms: int) -> list[float]:
    from triton import runtime
    from triton.testing import do_bench

    driver = runtime.driver.active
    memset_flush = driver.clear_cache
    driver.clear_cache = _read_flush
    try:
        try:
            times = do_bench(fn, warmup=warmup_ms, rep=rep_ms, return_mode="all")
        except AssertionError:      # a Triton without return_mode="all": its percentiles instead
            times = do_bench(fn, warmup=warmup_ms, rep=rep_ms,
                             quantiles=[i / 100 for i in range(1, 100)])
        return [float(t) for t in times]
    finally:
        driver.clear_cache = memset_flush


def _quantiles(values: list[float]) -> tuple[float, float, float]:
    """(median, p20, p80) by linear interpolation, as torch.quantile and do_bench compute them."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no timing samples")

    def q(p: float) -> float:
        pos = p * (len(ordered) - 1)
        lo = int(pos)
        hi = min(lo + 1, len(ordered) - 1)
        return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)

    return q(0.5), q(0.2), q(0.8)


def _read_flush(cache: torch.Tensor) -> None:
    """Evict L2 by reading do_bench's 256 MiB buffer (clean lines, no write-back later)."""
    cache.sum()


def measure_copy_gbps() -> float:
    """Bandwidth of a large device-to-device copy, bytes read + written, in GB/s."""
    n = COPY_BYTES // 4
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    median, _, _ = time_call(lambda: dst.copy_(src), warmup_ms=50, rep_ms=300)
    del src, dst
    torch.cuda.empty_cache()
    return 2 * COPY_BYTES / (median * 1e-3) / 1e9


def device_key(name: str, versions: dict[str, Any]) -> str:
    return f"{name} | torch {versions.get('torch')} | triton {versions.get('triton')} | cuda {versions.get('cuda')}"


def device_facts(cache_dir: str | None, name: str, versions: dict[str, Any],
                 log: Callable[[str], None]) -> dict[str, Any]:
    """Cached facts for this device, measuring the copy bandwidth on first use."""
    key = device_key(name, versions)
    cache_path = Path(cache_dir) / CACHE_FILE if cache_dir else None
    cache: dict[str, Any] = {}
    if cache_path is not None and cache_path.is_file():
        try:
            cache = json.loads(cache_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            cache = {}
    if isinstance(cache.get(key), dict) and cache[key].get("copy_gbps"):
        return cache[key]
    log(f"measuring copy bandwidth of {name} (once per device)")
    facts = {
        "name": name,
        "copy_gbps": measure_copy_gbps(),
        "versions": versions,
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if cache_path is not None:
        cache[key] = facts
        _write_atomic(cache_path, json.dumps(cache, indent=2))
    return facts


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".facts-")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
