"""A user's bench spec (`<kernel>.bench.py`) as a problem the judge can check and time.

The contract users and scripts rely on (README, "Kernel bench"):

    sizes = [(4096, 1024), (4096, 4096)]        # size tuples, passed back to inputs()
    dtypes = ["float16", "float32"]             # torch dtype names
    def inputs(size, dtype, device): ...        # -> tuple of arguments for the kernel
    def reference(*inputs): ...                 # the correct answer
    tolerances = {"float16": (atol, rtol)}      # optional, per dtype name
    baselines = {"torch": callable}             # optional, timed beside the kernel
    def bytes_moved(size, dtype): ...           # optional: GB/s and the roofline
    def flops(size, dtype): ...                 # optional: TFLOP/s and the roofline

`load` imports the spec in the judge (the spec is the user's own trusted file; the kernel
under test still runs only in the worker) and checks it, raising `SpecError` with the
file and line of the first problem. `BenchSpecProblem` then answers what the judge asks
of a catalogue drill's spec.py: cases, inputs for a case from a seeded generator,
reference, baseline(s), bytes and flops.
"""

from __future__ import annotations

import importlib.util
import math
import traceback
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import torch

from studio.drills.harness.spec_errors import SpecError

DTYPE_NAMES = ("float32", "float16", "bfloat16", "float64")
# Close to torch.testing's defaults, loosened for kernels that reorder reductions.
DEFAULT_TOLERANCES = {"float32": (1e-5, 1e-4), "float16": (1e-3, 1e-2), "bfloat16": (1e-2, 2e-2),
                      "float64": (1e-10, 1e-7)}


def default_spec_path(kernel_file: Path) -> Path:
    """`<kernel>.bench.py` beside the kernel file."""
    kernel_file = Path(kernel_file)
    return kernel_file.with_name(kernel_file.stem + ".bench.py")


def _line_in(tb: Any, path: str) -> int | None:
    found = None
    while tb is not None:
        if str(Path(tb.tb_frame.f_code.co_filename).resolve()) == path:
            found = tb.tb_lineno
        tb = tb.tb_next
    return found


def _import(path: Path) -> types.ModuleType:
    resolved = str(path.resolve())
    name = f"_studio_bench_spec_{abs(hash(resolved))}"
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise SpecError("cannot be imported as Python", resolved)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise SpecError(f"syntax error: {exc.msg}", resolved, exc.lineno) from exc
    except BaseException as exc:  # noqa: BLE001 - anything the spec does at import is its problem
        raise SpecError(f"failed to import: {type(exc).__name__}: {exc}", resolved,
                        _line_in(exc.__traceback__, resolved), traceback.format_exc()) from exc
    return module


def _size(value: Any) -> tuple[int, ...] | None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return (value,)
    if isinstance(value, (tuple, list)) and value and all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        return tuple(value)
    return None


@dataclass
class BenchSpecProblem:
    """A checked bench spec, shaped like a catalogue drill's spec module for the judge."""

    path: str
    module: types.ModuleType
    sizes: list[tuple[int, ...]]
    dtypes: list[str]
    tolerances: dict[str, dict[str, float]]
    baselines: dict[str, Callable]
    _last_ref_dtype: Any = field(default=None, repr=False)

    # --- what the judge asks --------------------------------------------------------------
    def cases(self) -> list[dict[str, Any]]:
        """Every sweep point is also a correctness case (checked before any timing)."""
        return [{"name": f"{'x'.join(map(str, s))} {d}", "shape": list(s), "dtype": d,
                 "fill": "spec", "layout": "spec"} for d in self.dtypes for s in self.sizes]

    def make_inputs(self, case: dict[str, Any], gen: torch.Generator, device: Any) -> tuple:
        """The spec's inputs for this point, reproducible from the case's seed."""
        devices = [device] if getattr(device, "type", str(device)) == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            torch.manual_seed(gen.initial_seed())
            made = self._call("inputs", self.module.inputs, tuple(case["shape"]),
                              getattr(torch, case["dtype"]), device)
        return tuple(made) if isinstance(made, (tuple, list)) else (made,)

    def reference(self, *inputs: Any) -> torch.Tensor:
        out = self._call("reference", self.module.reference, *inputs)
        if not isinstance(out, torch.Tensor):
            raise SpecError(f"reference() returned {type(out).__name__}, not a tensor", self.path)
        self._last_ref_dtype = out.dtype
        return out

    def output_dtype(self, *_inputs: Any) -> Any:
        """The kernel must return what the reference returns (dtype of the last reference)."""
        return self._last_ref_dtype

    def baseline(self, *inputs: Any) -> Any:
        """The first baseline (the judge times each; this one names the speedup)."""
        name = next(iter(self.baselines))
        return self.baselines[name](*inputs)

    def bytes_moved(self, case: dict[str, Any]) -> int:
        return self._model("bytes_moved", case)

    def flops(self, case: dict[str, Any]) -> int:
        return self._model("flops", case)

    # --- helpers --------------------------------------------------------------------------
    def _model(self, name: str, case: dict[str, Any]) -> int:
        fn = getattr(self.module, name, None)
        if not callable(fn):
            return 0
        value = self._call(name, fn, tuple(case["shape"]), getattr(torch, case["dtype"]))
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
            raise SpecError(f"{name}() returned {value!r}, not a non-negative number", self.path)
        return int(value)

    def _call(self, name: str, fn: Callable, *args: Any) -> Any:
        try:
            return fn(*args)
        except SpecError:
            raise
        except Exception as exc:  # noqa: BLE001 - reported with the spec's line
            raise SpecError(f"{name}() raised {type(exc).__name__}: {exc}", self.path,
                            _line_in(exc.__traceback__, self.path), traceback.format_exc()) from exc


def load(path: str | Path) -> BenchSpecProblem:
    """Import and check a bench spec; SpecError names the file and line of what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise SpecError("no such bench spec (write one beside the kernel, or let the Bench pane write it)",
                        str(path))
    module = _import(path)
    resolved = str(path.resolve())
    for name in ("inputs", "reference"):
        if not callable(getattr(module, name, None)):
            raise SpecError(f"defines no function {name}()", resolved)
    raw_sizes = getattr(module, "sizes", None)
    if not isinstance(raw_sizes, (list, tuple)) or not raw_sizes:
        raise SpecError("`sizes` must be a non-empty list of size tuples, e.g. [(4096, 1024)]", resolved)
    sizes = []
    for value in raw_sizes:
        size = _size(value)
        if size is None:
            raise SpecError(f"`sizes` holds {value!r}: a size is a tuple of positive ints", resolved)
        sizes.append(size)
    raw_dtypes = getattr(module, "dtypes", ["float32"])
    if isinstance(raw_dtypes, str) or not isinstance(raw_dtypes, (list, tuple)) or not raw_dtypes:
        raise SpecError("`dtypes` must be a list of dtype names, e.g. ['float16', 'float32']", resolved)
    dtypes = []
    for value in raw_dtypes:
        name = value if isinstance(value, str) else str(value).replace("torch.", "")
        if name not in DTYPE_NAMES:
            raise SpecError(f"`dtypes` holds {value!r}; use {', '.join(DTYPE_NAMES)}", resolved)
        dtypes.append(name)
    tolerances = {d: {"atol": a, "rtol": r} for d, (a, r) in DEFAULT_TOLERANCES.items()}
    raw_tol = getattr(module, "tolerances", None) or {}
    if not isinstance(raw_tol, dict):
        raise SpecError("`tolerances` must map dtype names to (atol, rtol)", resolved)
    for name, value in raw_tol.items():
        try:
            atol, rtol = (float(v) for v in value)
        except (TypeError, ValueError) as exc:
            raise SpecError(f"tolerances[{name!r}] must be (atol, rtol), not {value!r}", resolved) from exc
        if name not in DTYPE_NAMES or atol < 0 or rtol < 0:
            raise SpecError(f"tolerances[{name!r}]: a dtype name with non-negative (atol, rtol)", resolved)
        tolerances[name] = {"atol": atol, "rtol": rtol}
    raw_baselines = getattr(module, "baselines", None) or {}
    if not isinstance(raw_baselines, dict) or not all(
            isinstance(k, str) and callable(v) for k, v in raw_baselines.items()):
        raise SpecError("`baselines` must map names to callables, e.g. {'torch': lambda x: torch.softmax(x, -1)}", resolved)
    baselines = dict(raw_baselines) or {"reference": module.reference}
    return BenchSpecProblem(resolved, module, sizes, dtypes, tolerances, baselines)


def drill_request(problem: BenchSpecProblem, entry: str) -> dict[str, Any]:
    """The judge's drill dictionary for a bench: every point is a case, the sweep is the bench."""
    return {
        "id": f"bench:{Path(problem.path).name}",
        "entry": entry,
        "signature": f"{entry}(...)",
        "inputs": [],
        "metric": "gbps",
        "tolerances": problem.tolerances,
        "trials": 1,
        "cases": problem.cases(),
        "gpu_cases": [],
        "bench": {"shapes": [list(s) for s in problem.sizes], "dtypes": list(problem.dtypes)},
        "reference_ops": {},
    }


__all__ = ["BenchSpecProblem", "SpecError", "default_spec_path", "drill_request", "load"]
