"""Honesty instrumentation, in the worker: what the solution really did.

The verdict (correct or not) belongs to the judge and cannot be forged from here; these
observations decide whether a correct answer was obtained the way the drill asks (its own
Triton kernel, not the op it is meant to implement). They run inside the process that holds
the user's code, so each one is built to survive the cheats seen so far:

- `LaunchCounter`: Triton launches, by wrapping the `run` method of triton's JITFunction (and
  of the interpreter's InterpretedFunction), with the solution's file and line of the latest
  one (where a later CUDA error most likely came from). During checked calls it also keeps
  a copy of every tensor argument's storage before and after each launch, so the worker can
  tell whether the returned output was produced by the solution's kernels (`provenance`).
- `OpHooks`: the drill's reference ops observed in the dispatcher (torch.library), so a call
  from another thread, under `torch._C.DisableTorchFunction()` or in inference mode is seen.
- `_Spy` (a TorchFunctionMode): Python-level names that are not aten ops, and the buffers
  the solution allocates: every torch.empty / empty_like / zeros... result is swapped for a
  view into a guarded, NaN-filled buffer (see checks.py).
- `foreign_threads`: Python threads started by the solution that are alive during a call.
- `DispatchSnapshot`: the dispatcher entries the worker's own code relies on; a submission
  that re-registers them is caught.
Nothing here is active while timing, except the dispatcher snapshot.
"""

from __future__ import annotations

import os
import sys
import threading
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import torch
from torch.overrides import TorchFunctionMode

from studio.drills.harness.checks import GuardedBuffer, can_guard, guarded_empty

# Allocation functions whose results are replaced by guarded buffers; the first group
# returns uninitialised memory, so the poison is left as is.
_EMPTY_OPS = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided"}
_FILLED_OPS = {"zeros", "zeros_like", "new_zeros", "ones", "ones_like", "new_ones",
               "full", "full_like", "new_full"}
# Dtype conversions: a kernel-written buffer cast on return still counts as the kernel's.
_CAST_OPS = {"to", "half", "float", "bfloat16", "double", "type"}
# Ops the worker's own code runs (copies, the flush, checksums): their dispatcher entries
# must be the ones torch shipped with.
TRUSTED_OPS = ("copy_", "clone", "sum", "_to_copy", "mul", "view", "empty", "empty_strided",
               "equal", "as_strided")

_local = threading.local()


def normalize_op(name: str) -> str:
    """'_softmax', '__add__', 'add_' -> 'softmax', 'add', 'add'."""
    return name.strip("_")


@contextmanager
def trusted() -> Iterator[None]:
    """The worker's own tensor work on this thread: not counted as the solution's."""
    before = getattr(_local, "trusted", False)
    _local.trusted = True
    try:
        yield
    finally:
        _local.trusted = before


def _is_trusted() -> bool:
    return getattr(_local, "trusted", False)


def _storage(t: torch.Tensor) -> torch.Tensor:
    """Every byte of the storage behind t, as a flat uint8 tensor."""
    storage = t.untyped_storage()
    return torch.empty(0, dtype=torch.uint8, device=t.device).set_(storage)


def storage_key(t: torch.Tensor) -> int:
    return t.untyped_storage().data_ptr()


@dataclass
class LaunchRecord:
    kernel: str
    file: str | None
    line: int | None


@dataclass
class StorageHistory:
    """One storage's contents around the Triton launches of a call (two copies at most)."""

    first_before: torch.Tensor | None      # right before the first tracked launch
    last_after: torch.Tensor                # right after the latest one
    chain_ok: bool = True                   # nothing changed it between two launches
    changed: bool = False                   # some launch changed it
    resync: bool = False                    # an untracked (autotuning) launch ran on it since


@dataclass
class Provenance:
    """Storage contents around each Triton launch of one call, keyed by storage."""

    launches: dict[int, StorageHistory] = field(default_factory=dict)
    casts: dict[int, int] = field(default_factory=dict)    # result storage -> source storage

    def before_launch(self, key: int, before: torch.Tensor) -> None:
        history = self.launches.get(key)
        if history is not None and not history.resync \
                and not torch.equal(before, history.last_after):
            history.chain_ok = False

    def after_launch(self, key: int, before: torch.Tensor, after: torch.Tensor) -> None:
        history = self.launches.get(key)
        changed = not torch.equal(before, after)
        if history is None:
            self.launches[key] = StorageHistory(first_before=before, last_after=after,
                                                changed=changed)
            return
        history.last_after, history.resync = after, False
        history.changed = history.changed or changed

    def untracked_launch(self, key: int) -> None:
        """A launch whose writes could not be followed (Triton's autotuner benchmarking)."""
        history = self.launches.get(key)
        if history is None:
            self.launches[key] = StorageHistory(first_before=None, last_after=torch.empty(0),
                                                resync=True, changed=True)
        else:
            history.resync = history.changed = True

    def verdict(self, out: torch.Tensor | None, allocated: dict[int, torch.Tensor],
                may_stay: bool = False) -> str | None:
        """Why `out` was not produced by the solution's Triton kernels, or None if it was.
        `may_stay`: a buffer that is read and written in place (LeetGPU's "inout": reversing
        one element, sorting sorted data) may keep its contents.

        The output's storage must go from its allocation (seen by the spy, during the call)
        through Triton launches only: nothing may change it before the first launch, between
        two launches or after the last one, and at least one launch must change it.
        """
        key = storage_key(out)
        source = self.casts.get(key)
        if key not in self.launches and source is not None and source in allocated:
            key = source          # a dtype cast of a kernel-written buffer (split-K partials)
            out = None
        if key not in allocated:
            return ("the returned tensor was not allocated during the call (torch.empty and "
                    "friends): a Triton drill's output is a buffer its kernels write")
        history = self.launches.get(key)
        if history is None:
            return "no Triton kernel was given the returned tensor: its values come from elsewhere"
        with trusted():
            if (history.first_before is not None and not torch.equal(allocated[key], history.first_before)) \
                    or not history.chain_ok:
                return ("the returned tensor was changed outside the solution's Triton "
                        "kernels (by torch, numpy or another thread)")
            if out is not None and not history.resync \
                    and not torch.equal(history.last_after, _storage(out)):
                return ("the returned tensor was changed after the solution's last Triton "
                        "kernel (by torch, numpy or another thread)")
        if not history.changed and not may_stay:
            return "the Triton kernels given the returned tensor never wrote to it"
        return None


class LaunchCounter:
    """Counts Triton kernel launches by wrapping the `run` of triton's kernel classes."""

    def __init__(self, user_file: str, sync: Callable[[], None] = lambda: None) -> None:
        self.user_file = user_file
        self.sync = sync
        self.count = 0
        self.last: LaunchRecord | None = None
        self.provenance: Provenance | None = None
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
            if kwargs.get("warmup", False):
                return original(kernel, *args, **kwargs)
            counter._record(kernel)
            tracking = counter.provenance
            if tracking is None:
                with trusted():      # Triton's own launcher (the interpreter copies tensors)
                    return original(kernel, *args, **kwargs)
            tensors = _unique_storages([*args, *kwargs.values()])
            if _autotuning():
                for t in tensors:
                    tracking.untracked_launch(storage_key(t))
                with trusted():
                    return original(kernel, *args, **kwargs)
            with trusted():
                counter.sync()
                before = [_storage(t).clone() for t in tensors]
                for t, old in zip(tensors, before):
                    tracking.before_launch(storage_key(t), old)
            with trusted():
                result = original(kernel, *args, **kwargs)
                counter.sync()
                for t, old in zip(tensors, before):
                    tracking.after_launch(storage_key(t), old, _storage(t).clone())
            return result

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


def _autotuning() -> bool:
    """Is this launch one of Triton's autotuner benchmarking runs (not the real call)?"""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename.replace("\\", "/")
        if (name.endswith("triton/runtime/autotuner.py") and frame.f_code.co_name != "run") \
                or name.endswith("triton/testing.py"):
            return True
        frame = frame.f_back
    return False


def _launch_tensor(value: Any) -> Any:
    """The tensor a kernel argument gives the kernel: the tensor itself, or the tensor behind a
    host-built TMA descriptor (triton.tools.tensor_descriptor.TensorDescriptor, Gluon's
    TensorDescriptor: both hold it as `base`), through which a Hopper kernel writes its output."""
    if type(value).__name__.endswith("TensorDescriptor") and isinstance(getattr(value, "base", None), torch.Tensor):
        return value.base
    return value


def _unique_storages(values: list[Any]) -> list[torch.Tensor]:
    seen, tensors = set(), []
    for value in map(_launch_tensor, values):
        if isinstance(value, torch.Tensor) and value.numel() > 0:
            key = storage_key(value)
            if key not in seen:
                seen.add(key)
                tensors.append(value)
    return tensors


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


class OpHooks:
    """Records calls of named aten ops from any thread, seen in torch's dispatcher.

    A TorchFunctionMode is per thread and can be switched off by the code it watches; a
    kernel registered with torch.library sits in the dispatcher itself. Each op is hooked
    at the autograd keys (then re-dispatched below autograd) and, where torch can hand
    back the original kernel (torch.library.get_kernel), at the backend keys too, which
    inference mode does not skip. A hooked call runs the original kernel unchanged.
    """

    KEYS = ("CPU", "CUDA")

    def __init__(self, names: set[str]) -> None:
        self.seen: dict[str, str] = {}       # op -> thread it was first seen on
        self.armed = False
        self._lock = threading.Lock()
        self._library = torch.library.Library("aten", "IMPL")
        self.hooked: list[str] = []
        for name in sorted(names):
            for variant in (name, "_" + name):
                packet = getattr(torch.ops.aten, variant, None) if _has_aten(variant) else None
                if packet is not None:
                    self._hook_packet(variant, packet)

    def _hook_packet(self, name: str, packet: Any) -> None:
        get_kernel = getattr(torch.library, "get_kernel", None)
        for overload in packet.overloads():
            op = getattr(packet, overload)
            qualified = name if overload == "default" else f"{name}.{overload}"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for key in self.KEYS:
                    try:
                        self._library.impl(qualified, self._redispatch(op), f"Autograd{key}",
                                           with_keyset=True)
                    except (RuntimeError, ValueError):
                        continue
                    if get_kernel is None:
                        continue
                    try:
                        original = get_kernel(op, key)
                        self._library.impl(qualified, self._forward(op, original), key,
                                           with_keyset=True)
                    except (RuntimeError, ValueError, TypeError):
                        pass
            self.hooked.append(qualified)

    @contextmanager
    def watching(self) -> Iterator[None]:
        """Count calls while the solution's code runs (import, calls, timed loops)."""
        self.armed = True
        try:
            yield
        finally:
            self.armed = False

    def _note(self, op: Any) -> None:
        if self.armed and not _is_trusted():
            name = normalize_op(op._schema.name.split("::")[-1])
            with self._lock:
                self.seen.setdefault(name, threading.current_thread().name)

    def _redispatch(self, op: Any) -> Callable:
        def hook(keyset: Any, *args: Any, **kwargs: Any) -> Any:
            self._note(op)
            return op.redispatch(keyset & torch._C._after_autograd_keyset, *args, **kwargs)
        return hook

    def _forward(self, op: Any, original: Any) -> Callable:
        def hook(keyset: Any, *args: Any, **kwargs: Any) -> Any:
            self._note(op)
            return original.call_boxed(keyset, *args, **kwargs)
        return hook


def _has_aten(name: str) -> bool:
    try:
        getattr(torch.ops.aten, name)
        return True
    except (AttributeError, RuntimeError):
        return False


class DispatchSnapshot:
    """The dispatcher entries of the ops the worker itself relies on, to detect tampering."""

    def __init__(self, ops: tuple[str, ...] = TRUSTED_OPS) -> None:
        self.ops = ops
        self.tables = self._read()

    def _read(self) -> dict[str, str]:
        tables = {}
        for op in self.ops:
            overloads = getattr(torch.ops.aten, op).overloads()
            tables[op] = "".join(
                torch._C._dispatch_dump(f"aten::{op}" + ("" if o == "default" else f".{o}"))
                for o in overloads)
        return tables

    def changed(self) -> list[str]:
        now = self._read()
        return [op for op in self.ops if now[op] != self.tables[op]]


def active_modes() -> int:
    """TorchFunction and TorchDispatch modes pushed on this thread (0 when nobody meddles)."""
    return int(torch._C._len_torch_function_stack()) + int(torch._C._len_torch_dispatch_stack())


def foreign_threads(known: set[int]) -> list[str]:
    """Python threads alive now that were not there before the solution was imported."""
    current = threading.get_ident()
    names = {t.ident: t.name for t in threading.enumerate()}
    return sorted(names.get(ident, f"thread {ident}") for ident in sys._current_frames()
                  if ident not in known and ident != current)


class _Spy(TorchFunctionMode):
    """Records every torch function the solution calls and guards what it allocates.

    A TorchFunctionMode sees calls at the Python level: torch.softmax, F.softmax,
    Tensor.softmax, torch.ops.aten._softmax and F.rms_norm (before it decomposes) alike;
    the dispatcher hooks (OpHooks) see what it cannot. Allocations are recorded with their
    contents right after allocation, for the provenance check.
    """

    def __init__(self, names: set[str], allocations: list[tuple[str, GuardedBuffer]],
                 casts: dict[int, int]) -> None:
        super().__init__()
        self.names = names
        self.allocations = allocations
        self.casts = casts

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "") or ""
        if _is_trusted() or torch.compiler.is_compiling():
            # The worker's own copies and clones; and code torch.compile is tracing, where
            # the bookkeeping below would become part of the graph's guards (dynamo fails
            # them on the same frame). Compiled code is still seen by the dispatcher hooks.
            return func(*args, **(kwargs or {}))
        self.names.add(normalize_op(name))
        out = func(*args, **(kwargs or {}))
        if name in _CAST_OPS and args and isinstance(args[0], torch.Tensor) \
                and isinstance(out, torch.Tensor) and out.numel() and args[0].numel():
            self.casts[storage_key(out)] = storage_key(args[0])
        if (name in _EMPTY_OPS or name in _FILLED_OPS) and isinstance(out, torch.Tensor) \
                and out.numel() > 0 and can_guard(out.dtype) and not _torch_machinery(out):
            with trusted():
                buffer = guarded_empty(out.size(), out.stride(), out.dtype, out.device,
                                       label=f"torch.{name}")
                if name in _FILLED_OPS:
                    buffer.view.copy_(out)
                buffer.initial = buffer.raw.clone()
            self.allocations.append((f"torch.{name}", buffer))
            return buffer.view
        return out


_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
_OVERRIDES_FILE = torch.overrides.__file__


def _torch_machinery(out: torch.Tensor) -> bool:
    """An allocation made by torch itself, not by the solution's code: a CUDA graph being
    captured, or torch's own runtime (the CUDA-graph trees of torch.compile(mode=
    "reduce-overhead") copy a graph's inputs into their private memory pool, and check that
    pool holds nothing else). A guarded copy there would put buffers into that pool that its
    owner does not know of (RuntimeError: "tensor(s) in the cudagraph pool not tracked as
    outputs") and be timed or replayed as part of the graph."""
    if out.is_cuda and torch.cuda.is_current_stream_capturing():
        return True
    # Told by the caller's file and its module both (a solution could call itself "torch.x",
    # or compile code under a file name inside torch): code running in the namespace of a
    # module of torch's, imported from that file.
    frame = sys._getframe(2)          # 0: here, 1: the mode; then whoever called torch
    while frame is not None and frame.f_code.co_filename in (_OVERRIDES_FILE, __file__):
        frame = frame.f_back
    if frame is None or not frame.f_code.co_filename.startswith(_TORCH_DIR):
        return False
    name = frame.f_globals.get("__name__") or ""
    module = sys.modules.get(name)
    return (name == "torch" or name.startswith("torch.")) and module is not None \
        and module.__dict__ is frame.f_globals and getattr(module, "__file__", None) == frame.f_code.co_filename


@dataclass
class Watch:
    """What one call of the solution did (filled in by `watching`)."""

    launches: int = 0
    last_launch: LaunchRecord | None = None
    ops: set[str] = field(default_factory=set)
    allocations: list[tuple[str, GuardedBuffer]] = field(default_factory=list)
    provenance: Provenance = field(default_factory=Provenance)

    def output_buffer(self, out: Any) -> GuardedBuffer | None:
        """The guarded allocation that `out` lives in, if the solution allocated it."""
        if not isinstance(out, torch.Tensor):
            return None
        for _, buffer in self.allocations:
            if out.untyped_storage().data_ptr() == buffer.raw.untyped_storage().data_ptr():
                return buffer
        return None

    def provenance_problem(self, out: torch.Tensor, given: dict[int, torch.Tensor] | None = None,
                           may_stay: bool = False) -> str | None:
        """`given`: output buffers the problem handed over (storage key -> every byte at the
        start of the call), which count as allocated for the call."""
        allocated = {storage_key(b.raw): b.initial for _, b in self.allocations
                     if b.initial is not None}
        allocated.update(given or {})
        return self.provenance.verdict(out, allocated, may_stay)


class watching:
    """Context manager: instrument one call; results land in `self.watch`.

    With `track=True` the contents of every buffer given to a Triton launch are kept
    around the launch (the provenance check of Triton drills).
    """

    def __init__(self, counter: LaunchCounter, track: bool = False) -> None:
        self.counter = counter
        self.track = track
        self.watch = Watch()

    def __enter__(self) -> Watch:
        self._start = self.counter.count
        self.counter.last = None
        self.counter.provenance = self.watch.provenance if self.track else None
        self.counter.install()
        self._spy = _Spy(self.watch.ops, self.watch.allocations, self.watch.provenance.casts)
        self._spy.__enter__()
        return self.watch

    def __exit__(self, *exc: Any) -> None:
        self._spy.__exit__(None, None, None)
        self.counter.uninstall()
        self.counter.provenance = None
        self.watch.launches = self.counter.count - self._start
        self.watch.last_launch = self.counter.last
