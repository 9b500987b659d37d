"""A pack problem (GPU MODE or LeetGPU, read from the user's clone) as the judge's spec.

Runs in the judge only. The problem's own files are imported here, in the judge, as the
catalogue's spec.py is: they are the user's clone of a public repository, and they make the
inputs and the expected answer. The solution still runs only in the worker.

What each layout asks of a solution, and how it is checked:

- **GPU MODE** (`task.yml`, `reference.py`): every entry of `tests` is a case; its keyword
  arguments go to the problem's `generate_input`; the solution's `custom_kernel(data)` gets
  `data` as GPU MODE's own evaluator passes it (a tuple, or one tensor as in linalg), and
  returns the output: a tensor (often the output buffer that came in `data`) or a tuple of
  tensors (fp8_quant's values and scales, QR's H and tau), which crosses from the worker
  joined and is rebuilt exactly. The verdict is the problem's own
  `check_implementation(data, output)`, on the judge's untouched copy of `data`.
- **LeetGPU** (`challenge.py`): the example test and every functional test are cases, made by
  the challenge's own generators (seeded); the solution's `solve(...)` gets the arguments in
  `get_solve_signature()` order and writes its output in place; the verdict compares that
  output with the one `reference_impl` wrote, with the challenge's atol and rtol.

An output buffer handed to the solution is a fresh copy filled with NaN (or -1 for integer
types), so elements it never writes are seen; the other inputs are guarded as in every drill.
Timing (`--bench`) runs over the problem's own benchmark inputs: GPU MODE's `benchmarks`
entries of task.yml, LeetGPU's `generate_performance_test()`. Each point is checked as the
cases are, then timed under the engine's protocol with the problem's reference (GPU MODE's
`ref_kernel`, LeetGPU's `reference_impl`: torch code) as the baseline. Its bytes are those
of the arguments (every tensor read or written once), a lower bound on the traffic.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from pathlib import Path
from typing import Any, Iterator

import torch


class PackProblemError(Exception):
    """The problem's own files failed: a broken problem, reported with its file."""

    def __init__(self, message: str, file: str | None = None) -> None:
        super().__init__(message)
        self.message, self.file = message, file


@contextlib.contextmanager
def _importable(*folders: Path) -> Iterator[None]:
    """The problem's folders on sys.path while its modules import each other (`from task
    import ...`, `from core.challenge_base import ...`); their module names are cleared so two
    problems of one pack never share a stale `reference` or `utils`."""
    saved = list(sys.path)
    for folder in reversed(folders):
        sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path[:] = saved


def _import(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _forget(*names: str) -> None:
    for name in list(sys.modules):
        if name in names or any(name.startswith(n + ".") for n in names):
            del sys.modules[name]


def _poisoned_like(value: torch.Tensor) -> torch.Tensor:
    fresh = torch.empty_like(value, memory_format=torch.contiguous_format)
    if fresh.dtype.is_floating_point or fresh.dtype.is_complex:
        fresh.fill_(float("nan"))
    elif fresh.dtype != torch.bool:
        fresh.fill_(-1)
    return fresh


def _clone(values: Any) -> Any:
    """A copy of every tensor in `values`, nested in tuples, lists and dicts as GPU MODE's own
    evaluator clones `data` (BioML's trimul carries its weights in a dict)."""
    if isinstance(values, torch.Tensor):
        return values.clone()
    if isinstance(values, tuple):
        return tuple(_clone(v) for v in values)
    if isinstance(values, list):
        return [_clone(v) for v in values]
    if isinstance(values, dict):
        return {k: _clone(v) for k, v in values.items()}
    return values


def _tensors_in(value: Any) -> Iterator[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _tensors_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors_in(v)


def _same_values(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Two results of the problem's reference on the same inputs (to its own rounding: a
    reference with atomics may sum in another order), NaN matching NaN."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.is_floating_point or a.dtype.is_complex:
        return bool(torch.allclose(a.to(torch.complex128 if a.dtype.is_complex else torch.float64),
                                   b.to(torch.complex128 if b.dtype.is_complex else torch.float64),
                                   rtol=1e-5, atol=1e-8, equal_nan=True))
    return bool(torch.equal(a, b))


def _case_label(kwargs: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in kwargs.items())


class PackProblem:
    """What the judge asks of a spec, for one pack problem (see the module docstring)."""

    call_style = "args"
    entry = ""

    def __init__(self, folder: Path, device: Any) -> None:
        self.folder = Path(folder)
        self.device = device

    # The judge's questions ----------------------------------------------------------------
    def drill_request(self) -> dict[str, Any]:
        raise NotImplementedError

    def make_inputs(self, case: dict[str, Any], gen: torch.Generator, device: Any) -> tuple:
        raise NotImplementedError

    def reference(self, *inputs: Any) -> torch.Tensor:
        raise NotImplementedError

    def output_indices(self, inputs: tuple) -> list[int]:
        """Which arguments are output buffers (handed over fresh and NaN-filled, unguarded)."""
        return []

    def fresh_output(self, value: torch.Tensor, index: int | None = None) -> torch.Tensor:
        """The copy of output argument `index` the solution gets: NaN-filled (-1 for integers),
        so elements it never writes are seen."""
        return _poisoned_like(value)

    def output_dtype(self, inputs: tuple, reference: torch.Tensor) -> torch.dtype:
        return reference.dtype

    def check_output(self, inputs: tuple, reference: torch.Tensor, out: torch.Tensor,
                     parts: list | None = None) -> str | None:
        raise NotImplementedError

    # Timing -------------------------------------------------------------------------------
    def bench_cases(self) -> list[dict[str, Any]]:
        """The problem's benchmark inputs, as cases (name, shape and dtype for the plot)."""
        return []

    def make_bench_inputs(self, case: dict[str, Any], index: int) -> tuple:
        """Input set `index` of a benchmark case: a timed loop rotates over a few."""
        raise NotImplementedError

    def baseline(self, *inputs: Any) -> Any:
        """The problem's own reference implementation, timed beside the solution."""
        raise NotImplementedError

    def bytes_of(self, inputs: tuple) -> int:
        return sum(v.numel() * v.element_size() for v in inputs if isinstance(v, torch.Tensor))

    def _labelled(self, name: str, inputs: tuple) -> dict[str, Any]:
        first = max((v for v in inputs if isinstance(v, torch.Tensor)), key=lambda t: t.numel(), default=None)
        return {"name": name, "shape": list(first.shape) if first is not None else [],
                "dtype": str(first.dtype).replace("torch.", "") if first is not None else ""}


# ----- GPU MODE ----------------------------------------------------------------------------------
class GpuModeProblem(PackProblem):
    call_style = "tuple"
    entry = "custom_kernel"

    def __init__(self, folder: Path, device: Any) -> None:
        super().__init__(folder, device)
        self.import_paths = [self.folder, self.folder.parent]   # submissions do `from task import ...`
        import yaml

        task_file = self.folder / "task.yml"
        try:
            task = yaml.safe_load(task_file.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise PackProblemError(f"task.yml cannot be read: {exc}", str(task_file)) from None
        tests = task.get("tests") if isinstance(task, dict) else None
        if not isinstance(tests, list) or not tests or not all(isinstance(t, dict) for t in tests):
            raise PackProblemError("task.yml: `tests` must be a list of keyword-argument mappings", str(task_file))
        self.tests = tests
        benchmarks = task.get("benchmarks")
        self.benchmarks = [dict(b) for b in benchmarks] if isinstance(benchmarks, list) and all(
            isinstance(b, dict) for b in benchmarks) else []
        _forget("reference", "task", "utils")
        try:
            with _importable(self.folder, self.folder.parent):
                self.module = _import("reference", self.folder / "reference.py")
        except BaseException as exc:  # noqa: BLE001 - the problem's own code
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise PackProblemError(f"reference.py failed to import: {type(exc).__name__}: {exc}",
                                   str(self.folder / "reference.py")) from None
        for name in ("ref_kernel", "generate_input", "check_implementation"):
            if not callable(getattr(self.module, name, None)):
                raise PackProblemError(f"reference.py defines no {name}()", str(self.folder / "reference.py"))

    def drill_request(self) -> dict[str, Any]:
        cases = [{"name": _case_label(kw) or f"test {i + 1}", "kwargs": dict(kw), "shape": [], "dtype": "",
                  "layout": "as generated", "fill": "as generated"} for i, kw in enumerate(self.tests)]
        names = [c["name"] for c in cases]
        for i, case in enumerate(cases):
            if names.count(case["name"]) > 1:
                case["name"] = f"test {i + 1}: {case['name']}"
        return {"entry": self.entry, "signature": "custom_kernel(data) -> output", "inputs": [],
                "cases": cases, "gpu_cases": [], "trials": 1, "tolerances": {},
                "bench": {"shapes": [], "dtypes": []}, "reference_ops": {}}

    def make_inputs(self, case: dict[str, Any], gen: torch.Generator, device: Any) -> tuple:
        try:
            data = self.module.generate_input(**case["kwargs"])
        except Exception as exc:  # noqa: BLE001 - the problem's own generator
            needs_gpu = "cuda" in f"{type(exc).__name__} {exc}".lower() and not torch.cuda.is_available()
            first = (str(exc).strip().split(". ")[0].splitlines() or [""])[0][:200]
            raise PackProblemError(
                (f"the problem makes its inputs on the GPU and this machine has none ({type(exc).__name__}: {first}); "
                 f"run it where CUDA is available" if needs_gpu else
                 f"generate_input({_case_label(case['kwargs'])}) raised {type(exc).__name__}: {exc}"),
                str(self.folder / "reference.py")) from None
        # `data` is usually a tuple; linalg's problems (and pmpp's first edition) pass one tensor,
        # and custom_kernel, ref_kernel and check_implementation get that tensor itself.
        self.single = not isinstance(data, (tuple, list))
        data = (data,) if self.single else tuple(data)
        for value in _tensors_in(data):
            if value.device.type != torch.device(device).type:
                raise PackProblemError(
                    f"generate_input made tensors on {value.device.type}, and this run is on "
                    f"{torch.device(device).type}: the problem needs a GPU (run without --interpret on a "
                    f"machine with CUDA)", str(self.folder / "reference.py"))
        return data

    def _data(self, inputs: tuple) -> Any:
        """`data` as the problem's own functions take it (see make_inputs)."""
        return inputs[0] if getattr(self, "single", False) and len(inputs) == 1 else inputs

    def bench_cases(self) -> list[dict[str, Any]]:
        cases = []
        for i, kwargs in enumerate(self.benchmarks):
            inputs = self.make_bench_inputs({"kwargs": kwargs}, 0)
            cases.append({**self._labelled(_case_label(kwargs) or f"benchmark {i + 1}", inputs), "kwargs": kwargs})
        return cases

    def make_bench_inputs(self, case: dict[str, Any], index: int) -> tuple:
        kwargs = dict(case["kwargs"])
        if index and isinstance(kwargs.get("seed"), int):
            kwargs["seed"] = kwargs["seed"] + 7919 * index   # another input set of the same size
        return self.make_inputs({"kwargs": kwargs}, torch.Generator(), self.device)

    def baseline(self, *inputs: Any) -> Any:
        return self.module.ref_kernel(self._data(inputs))

    def bytes_of(self, inputs: tuple) -> int:
        return sum(v.numel() * v.element_size() for v in _tensors_in(inputs))

    def reference(self, *inputs: Any) -> torch.Tensor:
        """The expected output; several outputs (a tuple: fp8_quant's values and scales, QR's
        H and tau) as one float64 vector, as the worker joins a solution's tuple (`joined`)."""
        copy = _clone(inputs)
        expected = self.module.ref_kernel(self._data(copy))
        parts = list(expected) if isinstance(expected, (tuple, list)) else [expected]
        if not parts or not all(isinstance(p, torch.Tensor) for p in parts):
            kinds = ", ".join(type(p).__name__ for p in parts) or "nothing"
            raise PackProblemError(f"ref_kernel returned {type(expected).__name__} ({kinds}); this app judges "
                                   f"outputs that are a tensor or a tuple of tensors",
                                   str(self.folder / "reference.py"))
        self._multi = isinstance(expected, (tuple, list))
        self._buffers = self._output_buffers(inputs, copy, parts)
        return joined(parts) if self._multi else expected

    def _output_buffers(self, inputs: tuple, copy: tuple, parts: list[torch.Tensor]) -> list[int]:
        """Which tensors of `data` are output buffers: handed over fresh and NaN-filled, and
        free to be written and returned. One ref_kernel returned (it filled it: `out[...] =`),
        or, where it returns a new tensor (`return a @ b`), the last tensor of `data` of that
        output's shape (or size: a (1,) buffer for a 0-d sum) that ref_kernel does not read:
        the same answer with that tensor NaN-filled (an input of the output's shape, as
        causal_conv1d's x, is read, so it is no buffer; a `data` of one tensor has none).
        Decided once per input signature."""
        if getattr(self, "single", False):
            return []          # `data` is the one input tensor: there is no output buffer
        key = tuple((tuple(v.shape), v.dtype) if isinstance(v, torch.Tensor) else type(v).__name__ for v in inputs)
        cache = self.__dict__.setdefault("_buffer_cache", {})
        if key in cache:
            return cache[key]
        found: list[int] = []
        for part in parts:
            index = next((i for i, v in enumerate(copy) if v is part), None)
            if index is not None and index not in found:
                found.append(index)
        for part in parts:
            if any(copy[i] is part for i in found):
                continue
            last = max((i for i, v in enumerate(inputs) if isinstance(v, torch.Tensor)), default=None)
            for same in (lambda t: tuple(t.shape) == tuple(part.shape), lambda t: t.numel() == part.numel()):
                index = next((i for i in reversed(range(len(inputs))) if isinstance(inputs[i], torch.Tensor)
                              and i not in found and same(inputs[i]) and self._unread(inputs, i, parts, last)), None)
                if index is not None:
                    found.append(index)
                    break
        cache[key] = sorted(found)
        return cache[key]

    def _unread(self, inputs: tuple, index: int, parts: list[torch.Tensor], last: int | None) -> bool:
        """Whether ref_kernel gives the same answer with `data[index]` NaN-filled. An integer
        tensor is not probed (filled with -1 it could index out of bounds, and a device-side
        assert ends the GPU context): it is the buffer only as the last tensor of `data`."""
        if not (inputs[index].dtype.is_floating_point or inputs[index].dtype.is_complex):
            return index == last
        probe = list(_clone(inputs))
        probe[index] = _poisoned_like(probe[index])
        try:
            again = self.module.ref_kernel(self._data(tuple(probe)))
        except Exception:  # noqa: BLE001 - a reference that chokes on NaN read the tensor
            return False
        again = list(again) if isinstance(again, (tuple, list)) else [again]
        return len(again) == len(parts) and all(isinstance(a, torch.Tensor) and _same_values(a, p)
                                                for a, p in zip(again, parts))

    def output_dtype(self, inputs: tuple, reference: torch.Tensor) -> torch.dtype:
        """The dtype a solution's output has: the output buffer's (a float32 buffer where the
        reference computes in float64), else the reference's (float64 for several outputs)."""
        buffers = getattr(self, "_buffers", [])
        if not getattr(self, "_multi", False) and buffers and isinstance(inputs[buffers[0]], torch.Tensor):
            return inputs[buffers[0]].dtype
        return reference.dtype

    def output_indices(self, inputs: tuple) -> list[int]:
        return list(getattr(self, "_buffers", []))

    def check_output(self, inputs: tuple, reference: torch.Tensor, out: torch.Tensor,
                     parts: list | None = None) -> str | None:
        """The problem's own check_implementation on the judge's untouched `data`. `parts`: the
        shape and dtype of each tensor of a tuple the solution returned (the worker sent them
        joined): the tuple is rebuilt, exactly, before the check sees it."""
        output: Any = out
        if parts:
            output, start = [], 0
            for shape, dtype in parts:
                n = 1
                for d in shape:
                    n *= int(d)
                output.append(out[start:start + n].to(getattr(torch, str(dtype))).reshape(shape))
                start += n
            output = tuple(output)
        verdict = self.module.check_implementation(self._data(_clone(inputs)), output)
        if isinstance(verdict, tuple) and verdict:
            good, message = bool(verdict[0]), (str(verdict[1]) if len(verdict) > 1 else "")
        elif isinstance(verdict, str):
            good, message = verdict == "", verdict
        else:
            good, message = bool(verdict), ""
        return None if good else f"the problem's check_implementation: {message or 'failed'}".strip()


# ----- LeetGPU ----------------------------------------------------------------------------------------
class LeetGpuProblem(PackProblem):
    call_style = "inplace"
    entry = "solve"

    def __init__(self, folder: Path, device: Any, seed: int) -> None:
        super().__init__(folder, device)
        root = self.folder.parent.parent              # challenges/ (core/ lives there)
        _forget("core", "challenge")
        try:
            with _importable(root):
                module = _import("challenge", self.folder / "challenge.py")
                self.challenge = module.Challenge(device=str(torch.device(device).type))
        except BaseException as exc:  # noqa: BLE001 - the challenge's own code
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise PackProblemError(f"challenge.py failed to load: {type(exc).__name__}: {exc}",
                                   str(self.folder / "challenge.py")) from None
        try:
            signature = self.challenge.get_solve_signature()
            self.names = list(signature)
            self.outputs = [i for i, (_, spec) in enumerate(signature.items())
                            if isinstance(spec, (tuple, list)) and len(spec) > 1 and spec[1] in ("out", "inout")]
            self.inouts = [i for i, (_, spec) in enumerate(signature.items())
                           if isinstance(spec, (tuple, list)) and len(spec) > 1 and spec[1] == "inout"]
        except Exception as exc:  # noqa: BLE001
            raise PackProblemError(f"get_solve_signature() failed: {type(exc).__name__}: {exc}",
                                   str(self.folder / "challenge.py")) from None
        self.native_params = [[name, _native_kind(spec[0] if isinstance(spec, (tuple, list)) else spec)]
                              for name, spec in signature.items()]
        if not self.outputs:
            raise PackProblemError("the challenge declares no output (no \"out\" in get_solve_signature())",
                                   str(self.folder / "challenge.py"))
        self.atol = float(getattr(self.challenge, "atol", 1e-5))
        self.rtol = float(getattr(self.challenge, "rtol", 1e-5))
        self.tests = self._generate(seed)
        self.seed = seed

    def bench_cases(self) -> list[dict[str, Any]]:
        if not callable(getattr(self.challenge, "generate_performance_test", None)):
            return []
        return [self._labelled("performance test", self.make_bench_inputs({}, 0))]

    def make_bench_inputs(self, case: dict[str, Any], index: int) -> tuple:
        devices = [self.device] if torch.device(self.device).type == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            torch.manual_seed(self.seed + 7919 * (index + 1))
            try:
                test = self.challenge.generate_performance_test()
            except Exception as exc:  # noqa: BLE001 - the challenge's own generator
                raise PackProblemError(f"generate_performance_test() failed: {type(exc).__name__}: {exc}",
                                       str(self.folder / "challenge.py")) from None
            test = {k: _materialise(v, self.device) for k, v in dict(test).items()}
        missing = [n for n in self.names if n not in test]
        if missing:
            raise PackProblemError(f"the performance test lacks {', '.join(missing)} of get_solve_signature()",
                                   str(self.folder / "challenge.py"))
        return tuple(test[n] for n in self.names)

    def baseline(self, *inputs: Any) -> Any:
        return self.challenge.reference_impl(**dict(zip(self.names, inputs)))

    def _generate(self, seed: int) -> list[tuple[str, dict[str, Any]]]:
        tests: list[tuple[str, dict[str, Any]]] = []
        devices = [self.device] if torch.device(self.device).type == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            torch.manual_seed(seed)
            try:
                make_example = getattr(self.challenge, "generate_example_test", None)
                example = make_example() if callable(make_example) else []
                examples = example if isinstance(example, list) else [example]
                tests += [(f"example {i + 1}" if len(examples) > 1 else "example", t) for i, t in enumerate(examples)]
                functional = self.challenge.generate_functional_test()
                functional = functional if isinstance(functional, list) else [functional]
                tests += [(f"functional {i + 1}", t) for i, t in enumerate(functional)]
            except Exception as exc:  # noqa: BLE001 - the challenge's own generators
                raise PackProblemError(f"the challenge's test generator failed: {type(exc).__name__}: {exc}",
                                       str(self.folder / "challenge.py")) from None
        return [(name, {k: _materialise(v, self.device) for k, v in test.items()}) for name, test in tests]

    def drill_request(self) -> dict[str, Any]:
        written = ", ".join(self.names[i] for i in self.outputs)
        signature = f"solve({', '.join(self.names)}) writes {written} in place"
        cases = []
        for name, test in self.tests:
            shown = {k: list(v.shape) if isinstance(v, torch.Tensor) else v for k, v in test.items()}
            first = next((v for v in test.values() if isinstance(v, torch.Tensor)), None)
            cases.append({"name": name, "shape": list(first.shape) if first is not None else [],
                          "dtype": str(first.dtype).replace("torch.", "") if first is not None else "",
                          "layout": _case_label(shown)[:120], "fill": "as generated"})
        return {"entry": self.entry, "signature": signature, "inputs": list(self.names), "cases": cases,
                "gpu_cases": [], "trials": 1, "tolerances": {}, "bench": {"shapes": [], "dtypes": []},
                "reference_ops": {}}

    def make_inputs(self, case: dict[str, Any], gen: torch.Generator, device: Any) -> tuple:
        test = dict(self.tests)[case["name"]]
        missing = [n for n in self.names if n not in test]
        if missing:
            raise PackProblemError(f"test {case['name']!r} lacks {', '.join(missing)} of get_solve_signature()",
                                   str(self.folder / "challenge.py"))
        return _clone(tuple(test[n] for n in self.names))

    def reference(self, *inputs: Any) -> torch.Tensor:
        copy = _clone(inputs)
        self.challenge.reference_impl(**dict(zip(self.names, copy)))
        if len(self.outputs) == 1:
            return copy[self.outputs[0]]
        return joined([copy[i] for i in self.outputs])

    def output_indices(self, inputs: tuple) -> list[int]:
        return list(self.outputs)

    def fresh_output(self, value: torch.Tensor, index: int | None = None) -> torch.Tensor:
        """An "inout" argument (reverse_array's input, sorting's data) is read before it is
        written: the solution gets its values (unguarded); an "out" one comes NaN-filled."""
        if index in self.inouts:
            return value.clone(memory_format=torch.contiguous_format)
        return _poisoned_like(value)

    def _which_output(self, inputs: tuple, reference: torch.Tensor, out: torch.Tensor) -> str | None:
        from studio.drills.harness.checks import compare

        if tuple(out.shape) != tuple(reference.shape):
            return f"returned {list(out.shape)} values for the outputs, expected {list(reference.shape)}"
        start = 0
        for i in self.outputs:
            n = inputs[i].numel()
            part, want = out[start:start + n], reference[start:start + n]
            verdict = compare(part, want, dtype=torch.float64, device=torch.device(self.device), atol=self.atol,
                              rtol=self.rtol, poisoned=True)
            if not verdict.passed:
                return f"output {self.names[i]}: {verdict.error}"
            start += n
        return None

    def check_output(self, inputs: tuple, reference: torch.Tensor, out: torch.Tensor,
                     parts: list | None = None) -> str | None:
        from studio.drills.harness.checks import compare

        if len(self.outputs) > 1:   # every output, joined (see `joined`): name the one that is wrong
            problem = self._which_output(inputs, reference, out)
            if problem:
                return problem
        verdict = compare(out, reference.to(torch.float64) if reference.dtype.is_floating_point else reference,
                          dtype=reference.dtype, device=torch.device(self.device), atol=self.atol, rtol=self.rtol,
                          poisoned=True)   # the output argument went over NaN-filled (fresh_output)
        return None if verdict.passed else verdict.error


def joined(outputs: list[torch.Tensor]) -> torch.Tensor:
    """Several output buffers as one float64 vector, in signature order: how a challenge
    with several outputs (labels and centroids, dQ/dK/dV) is staged and compared. int32 and
    float32 values are exact in float64; an unwritten float output is still NaN."""
    return torch.cat([t.reshape(-1).to(torch.float64) for t in outputs])


def _native_kind(ctype: Any) -> str:
    """How a CUDA `solve` takes a parameter, from its ctypes type: a device pointer (the
    tensor's), an integer or a floating-point number."""
    import ctypes

    if isinstance(ctype, type) and issubclass(ctype, (ctypes._Pointer, ctypes.c_void_p)):
        return "ptr"
    if ctype in (ctypes.c_float, ctypes.c_double, ctypes.c_longdouble):
        return "float"
    return "int"


def _materialise(value: Any, device: Any) -> Any:
    """LeetGPU's declarative inputs (RandTensor, RandnTensor, RandIntTensor, FullTensor,
    OutTensor: a shape, a dtype and a distribution) as tensors; anything else as it is."""
    kind = type(value).__name__
    if kind not in ("RandTensor", "RandnTensor", "RandIntTensor", "FullTensor", "OutTensor"):
        return value
    shape, dtype = tuple(value.shape), getattr(torch, str(getattr(value, "dtype", "float32")))
    if kind == "RandTensor":
        return torch.rand(shape, device=device).mul_(value.high - value.low).add_(value.low).to(dtype)
    if kind == "RandnTensor":
        return (torch.randn(shape, device=device) * value.std + value.mean).to(dtype)
    if kind == "RandIntTensor":
        return torch.randint(int(value.low), int(value.high), shape, device=device, dtype=dtype)
    if kind == "FullTensor":
        return torch.full(shape, value.value, device=device, dtype=dtype)
    return torch.empty(shape, device=device, dtype=dtype)


def load(pack_problem: dict[str, Any], device: Any, seed: int) -> PackProblem:
    folder = Path(pack_problem["folder"])
    layout = pack_problem.get("layout")
    if layout == "gpumode":
        return GpuModeProblem(folder, device)
    if layout == "leetgpu":
        return LeetGpuProblem(folder, device, seed)
    raise PackProblemError(f"unknown pack layout {layout!r}")
