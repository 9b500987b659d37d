"""Honesty instrumentation: what the solution really did during one checked call.

`Watch` wraps a single call of the solution and records
- Triton launches, by wrapping the `run` method of triton's JITFunction (and of the
  interpreter's InterpretedFunction), with the solution's file and line of the latest one
  (that is where a later CUDA error most likely came from);
- the torch functions it called (a TorchFunctionMode, which sees torch.softmax,
  Tensor.softmax, torch.ops.aten._softmax and F.rms_norm alike), so a drill can flag
  its reference op;
- the buffers it allocated: every torch.empty / empty_like / zeros... result is swapped
  for a view into a guarded, NaN-filled buffer (see checks.py).
Nothing here is active while timing.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import torch
from torch.overrides import TorchFunctionMode

from studio.drills.harness.checks import GuardedBuffer, can_guard, guarded_empty

# Allocation functions whose results are replaced by guarded buffers; the first group
# returns uninitialised memory, so the poison is left as is.
_EMPTY_OPS = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided"}
_FILLED_OPS = {"zeros", "zeros_like", "new_zeros", "ones", "ones_like", "new_ones",
               "full", "full_like", "new_full"}


def normalize_op(name: str) -> str:
    """'_softmax', '__add__', 'add_' -> 'softmax', 'add', 'add'."""
    return name.strip("_")


@dataclass
class LaunchRecord:
    kernel: str
    file: str | None
    line: int | None


class LaunchCounter:
    """Counts Triton kernel launches by wrapping the `run` of triton's kernel classes."""

    def __init__(self, user_file: str) -> None:
        self.user_file = user_file
        self.count = 0
        self.last: LaunchRecord | None = None
        self._originals: list[tuple[type, Callable]] = []

    def install(self) -> None:
        if self._originals:
            return
        for cls in _kernel_classes():
            original = cls.__dict__["run"]
            cls.run = self._wrap(original)
            self._originals.append((cls, original))

    def uninstall(self) -> None:
        for cls, original in self._originals:
            cls.run = original
        self._originals.clear()

    def _wrap(self, original: Callable) -> Callable:
        counter = self

        def run(kernel: Any, *args: Any, **kwargs: Any) -> Any:
            if not kwargs.get("warmup", False):
                counter._record(kernel)
            return original(kernel, *args, **kwargs)

        return run

    def _record(self, kernel: Any) -> None:
        self.count += 1
        name = getattr(kernel, "__name__", None) or getattr(getattr(kernel, "fn", None), "__name__", "?")
        frame = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename != self.user_file:
            frame = frame.f_back
        if frame is None:
            self.last = LaunchRecord(kernel=str(name), file=None, line=None)
        else:
            self.last = LaunchRecord(kernel=str(name), file=self.user_file, line=frame.f_lineno)


def _kernel_classes() -> list[type]:
    classes: list[type] = []
    try:
        from triton.runtime.jit import JITFunction
        classes.append(JITFunction)
    except ImportError:
        return classes
    try:
        from triton.runtime.interpreter import InterpretedFunction
        classes.append(InterpretedFunction)
    except ImportError:
        pass
    return classes


class _Spy(TorchFunctionMode):
    """Records every torch function the solution calls and guards what it allocates.

    A TorchFunctionMode sees calls at the Python level: torch.softmax, F.softmax,
    Tensor.softmax, torch.ops.aten._softmax and F.rms_norm (before it decomposes) alike.
    (A TorchDispatchMode would also see ops inside C++ composites, but loading it pulls in
    torch._dynamo, seconds per run, and the Python level is where a solution cheats.)
    """

    def __init__(self, names: set[str], allocations: list[tuple[str, GuardedBuffer]]) -> None:
        super().__init__()
        self.names = names
        self.allocations = allocations

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "") or ""
        self.names.add(normalize_op(name))
        out = func(*args, **(kwargs or {}))
        if (name in _EMPTY_OPS or name in _FILLED_OPS) and isinstance(out, torch.Tensor) \
                and out.numel() > 0 and can_guard(out.dtype):
            buffer = guarded_empty(out.size(), out.stride(), out.dtype, out.device,
                                   label=f"torch.{name}")
            if name in _FILLED_OPS:
                buffer.view.copy_(out)
            self.allocations.append((f"torch.{name}", buffer))
            return buffer.view
        return out


@dataclass
class Watch:
    """What one call of the solution did (filled in by `watching`)."""

    launches: int = 0
    last_launch: LaunchRecord | None = None
    ops: set[str] = field(default_factory=set)
    allocations: list[tuple[str, GuardedBuffer]] = field(default_factory=list)

    def output_buffer(self, out: Any) -> GuardedBuffer | None:
        """The guarded allocation that `out` lives in, if the solution allocated it."""
        if not isinstance(out, torch.Tensor):
            return None
        for _, buffer in self.allocations:
            if out.untyped_storage().data_ptr() == buffer.raw.untyped_storage().data_ptr():
                return buffer
        return None


class watching:
    """Context manager: instrument one call; results land in `self.watch`."""

    def __init__(self, counter: LaunchCounter) -> None:
        self.counter = counter
        self.watch = Watch()

    def __enter__(self) -> Watch:
        self._start = self.counter.count
        self.counter.last = None
        self.counter.install()
        self._spy = _Spy(self.watch.ops, self.watch.allocations)
        self._spy.__enter__()
        return self.watch

    def __exit__(self, *exc: Any) -> None:
        self._spy.__exit__(None, None, None)
        self.counter.uninstall()
        self.watch.launches = self.counter.count - self._start
        self.watch.last_launch = self.counter.last
