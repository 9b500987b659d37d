"""The timing loop that runs beside the user's code, in the worker (GPU only).

It is imported, and its primitives captured, before the user's module is: the CUDA event
methods, the synchronise call and the clock are held as the objects torch shipped, so
patching `torch.cuda.Event`, `triton.testing.do_bench` or `time.perf_counter` afterwards
changes nothing here. Each timed iteration:

    copy the next input set into the work buffers   (rotating sets: a cached answer is stale)
    read-flush L2 (256 MiB, as the engine's protocol)
    event | fn(*work) | event
    checksum the output                              (outside the events)

The judge then checks every iteration's checksum against the verified output for that
input set (judge.py).

`probe` runs a few calls with the device idle before each and synchronised (all streams)
after each, and takes both the events and the host clock: on an idle device the events
of an honest call span all of its work, launch gaps included, so host time less event
time is the fixed cost of synchronising. Work that escapes the events (a side stream
never joined to the caller's) shows up as extra host time. The "empty" variant (a call
that returns a ready tensor) measures that fixed cost, and the judge bounds the reported
host times by its own clock around the same calls.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import torch

from studio.drills.harness.honesty import trusted

FLUSH_BYTES = 256 << 20
# torch's float8 types (those this build has): reductions on them are CPU-only.
FLOAT8 = frozenset(getattr(torch, name) for name in ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
                                                     "float8_e5m2fnuz", "float8_e8m0fnu") if hasattr(torch, name))


class TimedLoop:
    def __init__(self) -> None:
        event_base = torch._C._CudaEventBase
        self._new_event = lambda: event_base(enable_timing=True)
        self._record = event_base.record
        self._elapsed = event_base.elapsed_time
        self._sync = torch._C._cuda_synchronize
        self._stream = torch.cuda.current_stream()
        self._clock = time.perf_counter
        self._copy = torch._C.TensorBase.copy_
        self._sum = torch._C.TensorBase.sum
        self._reshape = torch._C.TensorBase.reshape
        self._getitem = torch._C.TensorBase.__getitem__
        self._stack = torch.stack
        self._tolist = torch._C.TensorBase.tolist
        self._float64 = torch.float64
        self._to = torch._C.TensorBase.to
        self._float32 = torch.float32
        self._flush_buffer: torch.Tensor | None = None
        self._nan_pair = torch.full((2,), float("nan"), dtype=torch.float64, device="cuda")
        self._events: list[tuple[Any, Any]] = []
        from triton import testing

        # The stock protocols, captured like the primitives above.
        self._do_bench = testing.do_bench
        self._do_bench_cudagraph = testing.do_bench_cudagraph

    def sync(self) -> None:
        self._sync()

    def _flush(self) -> None:
        if self._flush_buffer is None:
            self._flush_buffer = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
        self._sum(self._flush_buffer)

    def _prepare(self, work: list[Any], source: list[Any], slots: list[int]) -> None:
        """Copy the next input set into the work buffers (its scalars too: a seed or a
        length that differs between sets is part of the set), then flush L2 (not timed)."""
        with trusted():
            for slot in slots:
                self._copy(work[slot], source[slot])
            if len(slots) != len(work):
                for slot, value in enumerate(source):
                    if slot not in slots:
                        work[slot] = value
            self._flush()

    def _event_pairs(self, n: int) -> list[tuple[Any, Any]]:
        while len(self._events) < n:
            self._events.append((self._new_event(), self._new_event()))
        return self._events[:n]

    def checksum(self, out: torch.Tensor) -> torch.Tensor:
        """Two float64 sums of the output (all of it, and every 7th element)."""
        flat = self._reshape(out, (-1,))
        if out.dtype in FLOAT8:          # CUDA has no sum/abs for float8; float32 holds it exactly
            flat = self._to(flat, self._float32)
        return self._stack([self._sum(flat, dtype=self._float64),
                            self._sum(self._getitem(flat, slice(None, None, 7)),
                                      dtype=self._float64)])

    def probe(self, fn: Callable[..., Any], work: list[Any], sources: list[list[Any]],
              n: int) -> dict[str, Any]:
        """n device-synchronised calls: per-call event ms and host ms."""
        pairs = self._event_pairs(n)
        tensor_slots = [i for i, value in enumerate(work) if isinstance(value, torch.Tensor)]
        events, hosts = [], []
        for i in range(n):
            self._prepare(work, sources[i % len(sources)], tensor_slots)
            start, end = pairs[i]
            self._sync()
            t0 = self._clock()
            self._record(start, self._stream)
            out = fn(*work)
            self._record(end, self._stream)
            self._sync()
            hosts.append((self._clock() - t0) * 1e3)
            del out
            events.append(float(self._elapsed(start, end)))
        return {"event_ms": events, "host_ms": hosts}

    def stock(self, fn: Callable[..., Any], work: list[Any], protocol: str, rep_ms: float) -> dict[str, Any]:
        """Per-call ms from Triton's own timers: `do_bench` (its memset flush between calls)
        or `cudagraph` (do_bench_cudagraph: replays of a CUDA graph of the call)."""
        call = lambda: fn(*work)  # noqa: E731
        started = self._clock()
        if protocol == "cudagraph":
            times = self._do_bench_cudagraph(call, rep=rep_ms, return_mode="all")
        else:
            times = self._do_bench(call, warmup=25, rep=rep_ms, return_mode="all")
        self._sync()
        return {"times_ms": [float(t) for t in times], "loop_s": self._clock() - started}

    def run(self, fn: Callable[..., Any], work: list[Any], sources: list[list[Any]], n: int,
            checksums: bool) -> dict[str, Any]:
        """Time n calls of fn(*work); returns per-call ms, checksums and the loop's wall time."""
        pairs = self._event_pairs(n)
        tensor_slots = [i for i, value in enumerate(work) if isinstance(value, torch.Tensor)]
        sums = []
        self._sync()
        started = self._clock()
        for i in range(n):
            self._prepare(work, sources[i % len(sources)], tensor_slots)
            start, end = pairs[i]
            self._record(start, self._stream)
            out = fn(*work)
            self._record(end, self._stream)
            if checksums:
                with trusted():
                    sums.append(self.checksum(out) if type(out) is torch.Tensor
                                else self._nan_pair)
            del out
        self._sync()
        wall = self._clock() - started
        times = [float(self._elapsed(start, end)) for start, end in pairs]
        with trusted():
            sum_list = self._tolist(self._stack(sums)) if sums else None
        return {"times_ms": times, "checksums": sum_list, "loop_s": wall}
