"""Correctness checks: guarded buffers and the comparison against the float64 reference.

Every tensor the solution sees or allocates during a check lives inside a larger buffer
whose spare bytes are 0xFF (NaN for every float dtype). After the call the harness looks
at those bytes: a changed input element is a mutated input, a changed byte outside the
elements is an out-of-bounds write, and NaN left in an output is an element that was never
written. Then the output is compared with the reference: type, shape, dtype, device, the
NaN/inf pattern, and finally |out - ref| <= atol + rtol * |ref| element by element.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

POISON = 0xFF
GUARD_BYTES = 64 * 1024
_INT_OF_SIZE = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


@dataclass
class GuardedBuffer:
    """A tensor view placed GUARD_BYTES into a poisoned byte buffer."""

    raw: torch.Tensor      # uint8, the whole allocation
    view: torch.Tensor     # what the solution gets
    start: int             # byte offset of the view's first element
    end: int               # byte offset just past its last element
    label: str
    initial: torch.Tensor | None = None   # every byte right after allocation (provenance)

    def guard_damage(self) -> tuple[int, int]:
        """Changed bytes (before the first element, after the last one)."""
        before = int((self.raw[: self.start] != POISON).sum())
        after = int((self.raw[self.end:] != POISON).sum())
        return before, after


def _span_elements(size: tuple[int, ...], stride: tuple[int, ...]) -> int:
    if any(s == 0 for s in size):
        return 0
    return 1 + sum((s - 1) * st for s, st in zip(size, stride))


def guarded_empty(size: Any, stride: Any, dtype: torch.dtype, device: Any,
                  label: str) -> GuardedBuffer:
    """An uninitialised-looking tensor (all NaN / -1) with guard bands on both sides."""
    itemsize = torch.empty((), dtype=dtype).element_size()
    span = _span_elements(tuple(size), tuple(stride)) * itemsize
    raw = torch.full((2 * GUARD_BYTES + span,), POISON, dtype=torch.uint8, device=device)
    view = raw.view(dtype).as_strided(tuple(size), tuple(stride), GUARD_BYTES // itemsize)
    return GuardedBuffer(raw=raw, view=view, start=GUARD_BYTES, end=GUARD_BYTES + span,
                         label=label)


def can_guard(dtype: torch.dtype) -> bool:
    return dtype.is_floating_point or (dtype != torch.bool and not dtype.is_complex)


@dataclass
class GuardedInput:
    """An input copied into a guarded buffer, with snapshots to detect any write."""

    buffer: GuardedBuffer
    pristine: torch.Tensor      # contiguous copy of the elements
    snapshot: torch.Tensor      # copy of every byte of the buffer

    @classmethod
    def of(cls, tensor: torch.Tensor, label: str) -> "GuardedInput":
        buffer = guarded_empty(tensor.size(), tensor.stride(), tensor.dtype, tensor.device, label)
        buffer.view.copy_(tensor)
        return cls(buffer=buffer, pristine=tensor.contiguous().clone(),
                   snapshot=buffer.raw.clone())

    def problem(self) -> str | None:
        """Why the solution's treatment of this input was wrong, or None."""
        if torch.equal(self.buffer.raw, self.snapshot):
            return None
        label = self.buffer.label
        changed = ~bitwise_equal_mask(self.buffer.view, self.pristine)
        if bool(changed.any()):
            count = int(changed.sum())
            first = format_index(torch.nonzero(changed)[0])
            return (f"modified its input `{label}` ({count} of {changed.numel()} elements "
                    f"changed, first at {first}); inputs must be left untouched")
        return (f"wrote outside the elements of input `{label}` (into the gaps or past its "
                f"ends): an out-of-bounds or stride bug")


def bitwise_equal_mask(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Element-wise 'same bits' (so NaN == NaN), for tensors of one dtype and shape."""
    int_dtype = _INT_OF_SIZE[a.element_size()]
    return a.contiguous().view(int_dtype) == b.contiguous().view(int_dtype)


def allocation_problem(op: str, buffer: GuardedBuffer) -> str | None:
    """An out-of-bounds write around a buffer the solution allocated, or None."""
    before, after = buffer.guard_damage()
    if not before and not after:
        return None
    where = []
    if after:
        where.append(f"{after} bytes past its end")
    if before:
        where.append(f"{before} bytes before its start")
    shape = list(buffer.view.shape)
    return (f"wrote out of bounds of a {shape} {dtype_name(buffer.view.dtype)} buffer "
            f"allocated with {op} ({' and '.join(where)}): a missing or wrong mask?")


@dataclass
class Verdict:
    passed: bool
    error: str | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).replace("torch.", "")


def format_index(index: torch.Tensor) -> str:
    return "[" + ", ".join(str(int(i)) for i in index.tolist()) + "]"


def _fmt(value: float) -> str:
    return f"{value:.4g}"


def check_meta(meta: dict[str, Any], shape: list[int], dtype: torch.dtype,
               device: torch.device) -> str | None:
    """What is wrong with the worker's description of its output, or None.

    The output must be a plain torch.Tensor (no subclass) of the reference's shape, the
    expected dtype, on the drill's device, and contiguous.
    """
    kind = meta.get("type")
    if kind != "Tensor":
        if meta.get("subclass"):
            return f"returned a torch.Tensor subclass ({kind}); outputs must be plain tensors"
        return f"returned {kind}, expected a torch.Tensor"
    if list(meta.get("shape") or []) != list(shape):
        return f"returned shape {meta.get('shape')}, expected {list(shape)}"
    if meta.get("dtype") != dtype_name(dtype):
        return f"returned dtype {meta.get('dtype')}, expected {dtype_name(dtype)}"
    if meta.get("device") != device.type:
        return f"returned a tensor on {meta.get('device')}, expected {device}"
    if not meta.get("contiguous"):
        return "returned a non-contiguous tensor; return a contiguous one"
    return None


def compare(out: Any, ref: torch.Tensor, *, dtype: torch.dtype, device: torch.device,
            atol: float, rtol: float, poisoned: bool) -> Verdict:
    """Check the solution's output against the float64 reference."""
    if not isinstance(out, torch.Tensor):
        return Verdict(False, f"returned {type(out).__name__}, expected a torch.Tensor")
    if tuple(out.shape) != tuple(ref.shape):
        return Verdict(False, f"returned shape {list(out.shape)}, expected {list(ref.shape)}")
    if out.dtype != dtype:
        return Verdict(False, f"returned dtype {dtype_name(out.dtype)}, expected {dtype_name(dtype)}")
    if out.device.type != device.type:
        return Verdict(False, f"returned a tensor on {out.device}, expected {device}")
    got = out.detach().to(device=ref.device, dtype=torch.float64)
    ref = ref.to(torch.float64)
    pattern = _special_value_problem(got, ref, poisoned)
    if pattern:
        return Verdict(False, pattern)
    finite = torch.isfinite(ref)
    if not bool(finite.any()):
        return Verdict(True, max_abs_err=0.0, max_rel_err=0.0)
    abs_err = torch.where(finite, (got - ref).abs(), torch.zeros_like(ref))
    rel_err = abs_err / ref.abs().clamp_min(torch.finfo(torch.float64).tiny)
    max_abs = float(abs_err.max())
    max_rel = float(torch.where(finite, rel_err, torch.zeros_like(ref)).max())
    bad = abs_err > atol + rtol * ref.abs()
    if not bool(bad.any()):
        return Verdict(True, max_abs_err=max_abs, max_rel_err=max_rel)
    positions = torch.nonzero(bad)
    first = positions[0]
    got_v, ref_v = float(got[tuple(first)]), float(ref[tuple(first)])
    more = ", ".join(format_index(p) for p in positions[1:3])
    return Verdict(
        False,
        f"{len(positions)} of {ref.numel()} elements out of tolerance (atol {atol:g}, "
        f"rtol {rtol:g}); max abs err {_fmt(max_abs)}, max rel err {_fmt(max_rel)}; "
        f"first bad at {format_index(first)}: got {_fmt(got_v)}, expected {_fmt(ref_v)}"
        + (f"; also at {more}" if more else ""),
        max_abs_err=max_abs, max_rel_err=max_rel)


def _special_value_problem(got: torch.Tensor, ref: torch.Tensor, poisoned: bool) -> str | None:
    """NaN and inf must sit exactly where the reference has them."""
    got_nan, ref_nan = torch.isnan(got), torch.isnan(ref)
    extra_nan = got_nan & ~ref_nan
    if bool(extra_nan.any()):
        count = int(extra_nan.sum())
        first = format_index(torch.nonzero(extra_nan)[0])
        hint = (" Outputs start out filled with NaN, so these elements were probably never "
                "written (a missing tail block or a wrong grid?), or the math overflowed."
                if poisoned else " Overflow, 0/0 or inf - inf?")
        return f"NaN at {count} of {got.numel()} positions where the reference is finite (first at {first}).{hint}"
    missing_nan = ref_nan & ~got_nan
    if bool(missing_nan.any()):
        first = format_index(torch.nonzero(missing_nan)[0])
        return f"finite value where the reference is NaN (first at {first})"
    got_inf, ref_inf = torch.isinf(got), torch.isinf(ref)
    wrong_inf = (got_inf | ref_inf) & ~((got == ref) & got_inf) & ~(~got_inf & ~ref_inf)
    if bool(wrong_inf.any()):
        pos = torch.nonzero(wrong_inf)[0]
        return (f"inf mismatch at {int(wrong_inf.sum())} positions (first at {format_index(pos)}: "
                f"got {float(got[tuple(pos)])}, expected {float(ref[tuple(pos)])}); overflow?")
    return None
