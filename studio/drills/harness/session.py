"""The drill child's main flow: pick the mode, load drill and solution, check, time, re-check.

Started by the runner as `python -m studio.drills.harness --events-fd N --request FILE`.
Everything the parent needs to know travels as events over fd N (wire.py); stdout and
stderr belong to the solution. Failures of the solution become case results or a typed
error event (syntax_error, import_error, missing_entry, cuda_error); a CUDA error is
sticky, so after reporting it the process ends at once. In interpreter mode (no GPU, or
asked for) TRITON_INTERPRET=1 is set before triton is imported and tensors live on the CPU.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib.util
import json
import os
import platform
import random
import re
import sys
import traceback
import types
import zlib
from pathlib import Path
from typing import Any, Callable

from studio.drills.harness.wire import EventWriter

RECHECK_SEED_OFFSET = 7919
_IMPORTS_TRITON = re.compile(r"^\s*(import|from)\s+triton\b", re.MULTILINE)
SUSPICIOUS_SPEEDUP = 10.0
MAX_MESSAGE = 4000


class CudaFault(Exception):
    """A CUDA error: the context is unusable, the run must end."""

    def __init__(self, message: str, file: str | None, line: int | None, tb: str) -> None:
        super().__init__(message)
        self.file, self.line, self.tb = file, line, tb


class Stop(Exception):
    """The run ends early after an error event was sent."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="studio.drills.harness")
    parser.add_argument("--events-fd", type=int, required=True)
    parser.add_argument("--request", required=True)
    args = parser.parse_args(argv)
    writer = EventWriter(args.events_fd)
    try:
        request = json.loads(Path(args.request).read_text(encoding="utf-8"))
        Session(request, writer).run()
        writer.emit("finished")
        return 0
    except Stop:
        writer.emit("finished")
        return 0
    except CudaFault as fault:
        writer.emit("error", kind="cuda_error", message=str(fault), file=fault.file,
                    line=fault.line, traceback=fault.tb)
        writer.close()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(3)   # CUDA teardown after a sticky error can hang; leave now
    except BaseException as exc:  # noqa: BLE001 - report anything, never die silently
        writer.emit("error", kind="harness_error", message=f"{type(exc).__name__}: {exc}",
                    traceback=traceback.format_exc())
        return 4
    finally:
        writer.close()


def _stable_seed(base: int, *parts: Any) -> int:
    text = "|".join(str(p) for p in (base, *parts))
    return zlib.crc32(text.encode()) & 0x7FFFFFFF


def _trim(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + " [...]"


class Session:
    def __init__(self, request: dict[str, Any], writer: EventWriter) -> None:
        self.request = request
        self.drill = request["drill"]
        self.writer = writer
        self.user_file = os.path.realpath(request["solution"])
        self.base_seed = request.get("seed")
        if self.base_seed is None:
            self.base_seed = random.SystemRandom().randrange(1 << 30)
        self.no_launch_cases: list[str] = []
        self.reference_calls: dict[str, str] = {}
        self.failed_cases = 0

    # ----- events -------------------------------------------------------------------
    def emit(self, event: str, **payload: Any) -> None:
        self.writer.emit(event, **payload)

    def log(self, message: str, level: str = "info") -> None:
        self.emit("log", level=level, message=message)

    def fail(self, kind: str, message: str, file: str | None = None, line: int | None = None,
             tb: str | None = None) -> Stop:
        self.emit("error", kind=kind, message=_trim(message), file=file, line=line, traceback=tb)
        return Stop()

    # ----- flow ---------------------------------------------------------------------
    def run(self) -> None:
        fault_log = self.request.get("faulthandler_log")
        if fault_log:
            self._fault_file = open(fault_log, "w")  # noqa: SIM115 - lives as long as the process
            faulthandler.enable(file=self._fault_file)
        self._start_torch()
        self.lang = self._language()
        self._hello()
        self.spec = self._load_spec()
        self.fn = self._load_solution()
        self.check_all(self.request.get("trials") or self.drill["trials"], phase="check")
        self._raise_honesty_flags()
        if self.request.get("bench"):
            self.bench()

    def _start_torch(self) -> None:
        """Import torch, decide gpu vs interpreter, then import triton (env set first)."""
        interpret = bool(self.request.get("interpret"))
        if interpret:
            os.environ["TRITON_INTERPRET"] = "1"
        import torch

        self.torch = torch
        if not interpret and not torch.cuda.is_available():
            interpret = True
            os.environ["TRITON_INTERPRET"] = "1"
        self.mode = "interpreter" if interpret else "gpu"
        self.device = torch.device("cpu" if interpret else "cuda")
        try:
            import triton
            triton_version = triton.__version__
        except ImportError:
            triton_version = None
        self.versions = {
            "python": platform.python_version(),
            "torch": torch.__version__,
            "triton": triton_version,
            "cuda": torch.version.cuda,
        }
        if interpret:
            self.device_name = f"cpu ({platform.machine()}, Triton interpreter)"
        else:
            self.device_name = torch.cuda.get_device_name()
        from studio.drills.harness.honesty import LaunchCounter

        self.counter = LaunchCounter(self.user_file)

    def _hello(self) -> None:
        self.emit("hello", mode=self.mode, device=self.device_name, versions=self.versions,
                  lang=self.lang, pid=os.getpid(), seed=self.base_seed)

    def _load_spec(self) -> types.ModuleType:
        path = self.drill["spec_module"]
        try:
            module = _import_file(f"_studio_drill_spec_{self.drill['id']}", path)
            for name in ("make_inputs", "reference", "baseline", "bytes_moved"):
                if not callable(getattr(module, name, None)):
                    raise AttributeError(f"spec.py defines no function {name}()")
        except BaseException as exc:  # noqa: BLE001 - a broken drill, not a broken run
            raise self.fail("bad_drill", f"the drill's spec.py failed to load: "
                            f"{type(exc).__name__}: {exc}", tb=traceback.format_exc())
        return module

    def _load_solution(self) -> Callable:
        path = self.user_file
        if not os.path.isfile(path):
            raise self.fail("import_error", f"solution file not found: {path}", file=path)
        sys.path.insert(0, os.path.dirname(path))
        try:
            module = _import_file("drill_solution", path)
        except SyntaxError as exc:
            where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
            text = (exc.text or "").rstrip()
            raise self.fail("syntax_error", f"{exc.msg} ({os.path.basename(path)}, {where})"
                            + (f"\n    {text}" if text else ""), file=path, line=exc.lineno)
        except BaseException as exc:  # noqa: BLE001 - the user's module may raise anything
            if isinstance(exc, KeyboardInterrupt):
                raise
            line = _user_line(exc.__traceback__, path)
            raise self.fail("import_error", f"importing {os.path.basename(path)} raised "
                            f"{type(exc).__name__}: {exc}" + (f" (line {line})" if line else ""),
                            file=path, line=line, tb=traceback.format_exc())
        entry = self.drill["entry"]
        fn = getattr(module, entry, None)
        if not callable(fn):
            defined = sorted(n for n, v in vars(module).items()
                             if callable(v) and getattr(v, "__module__", None) == module.__name__)
            raise self.fail("missing_entry", f"{os.path.basename(path)} defines no function "
                            f"`{entry}`: the drill calls {self.drill['signature']}"
                            + (f" (found: {', '.join(defined)})" if defined else ""), file=path)
        return fn

    def _language(self) -> str:
        """'triton' or 'torch': as asked, or (auto) whether the file imports triton."""
        asked = self.request.get("lang") or "auto"
        if asked in ("triton", "torch"):
            return asked
        try:
            source = Path(self.user_file).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "triton"
        return "triton" if _IMPORTS_TRITON.search(source) else "torch"

    # ----- correctness -----------------------------------------------------------------
    def check_all(self, trials: int, phase: str) -> None:
        cases = list(self.drill["cases"])
        if self.mode == "gpu":
            cases += self.drill.get("gpu_cases") or []
        seed = self.base_seed if phase == "check" else self.base_seed + RECHECK_SEED_OFFSET
        for index, case in enumerate(cases):
            name = case["name"] if phase == "check" else f"{case['name']} (re-check)"
            self.emit("case_started", name=name, index=index, total=len(cases), phase=phase)
            try:
                result = self.check_case(case, trials, seed)
            except (CudaFault, Stop):
                raise
            except Exception as exc:  # noqa: BLE001 - outside the solution: the drill's fault
                self._raise_if_cuda(exc)
                raise self.fail("bad_drill", f"preparing case {case['name']!r} failed: "
                                f"{type(exc).__name__}: {exc}", tb=traceback.format_exc())
            result["name"] = name
            result["phase"] = phase
            if not result["passed"]:
                self.failed_cases += 1
            self.emit("case_result", **result)

    def check_case(self, case: dict[str, Any], trials: int, base_seed: int) -> dict[str, Any]:
        from studio.drills.harness.inputs import dtype_of

        torch = self.torch
        dtype = dtype_of(case["dtype"])
        tol = self.drill["tolerances"][case["dtype"]]
        worst_abs, worst_rel = 0.0, 0.0
        result = {"shape": case["shape"], "dtype": case["dtype"], "layout": case["layout"],
                  "fill": case["fill"]}
        for trial in range(trials):
            seed = _stable_seed(base_seed, case["name"], trial)
            inputs = self.spec.make_inputs(case, torch.Generator().manual_seed(seed), self.device)
            reference = self.spec.reference(*inputs)
            verdict = self.checked_call(case["name"], inputs, reference,
                                        self._output_dtype(inputs, dtype), tol)
            worst_abs = max(worst_abs, verdict.max_abs_err or 0.0)
            worst_rel = max(worst_rel, verdict.max_rel_err or 0.0)
            if not verdict.passed:
                return {**result, "passed": False, "error": f"trial {trial + 1} (seed {seed}): {verdict.error}",
                        "max_abs_err": verdict.max_abs_err, "max_rel_err": verdict.max_rel_err,
                        "seed": seed, "trials": trial + 1}
        return {**result, "passed": True, "error": None, "max_abs_err": worst_abs,
                "max_rel_err": worst_rel, "seed": base_seed, "trials": trials}

    def _output_dtype(self, inputs: tuple, default: Any) -> Any:
        chooser = getattr(self.spec, "output_dtype", None)
        return chooser(*inputs) if callable(chooser) else default

    def checked_call(self, case_name: str, inputs: tuple, reference: Any, dtype: Any,
                     tol: dict[str, float]) -> Any:
        """Call the solution once under full instrumentation and judge the output."""
        from studio.drills.harness.checks import GuardedInput, Verdict, allocation_problem, compare
        from studio.drills.harness.honesty import watching

        torch = self.torch
        names = list(self.drill.get("inputs") or [])
        guarded, args = [], []
        for i, value in enumerate(inputs):
            label = names[i] if i < len(names) else f"arg{i}"
            if isinstance(value, torch.Tensor):
                guard = GuardedInput.of(value, label)
                guarded.append(guard)
                args.append(guard.buffer.view)
            else:
                args.append(value)
        context = watching(self.counter)
        with context as watch:
            try:
                out = self.fn(*args)
                self._sync()
            except (Exception, SystemExit) as exc:
                self._raise_if_cuda(exc)
                return Verdict(False, self._describe(exc))
        self._note_honesty(case_name, watch)
        problems = [p for p in (g.problem() for g in guarded) if p]
        problems += [p for p in (allocation_problem(op, b) for op, b in watch.allocations) if p]
        verdict = compare(out, reference, dtype=dtype, device=self.device,
                          atol=tol["atol"], rtol=tol["rtol"],
                          poisoned=watch.output_buffer(out) is not None)
        if problems:
            if not verdict.passed:
                problems.append(verdict.error)
            return Verdict(False, "; ".join(problems), verdict.max_abs_err, verdict.max_rel_err)
        return verdict

    def _sync(self) -> None:
        if self.mode == "gpu":
            self.torch.cuda.synchronize()

    def _note_honesty(self, case_name: str, watch: Any) -> None:
        if self.lang == "triton" and watch.launches == 0:
            self.no_launch_cases.append(case_name)
        banned = set(self.drill.get("reference_ops", {}).get(self.lang) or [])
        for op in sorted(watch.ops & {op.strip("_") for op in banned}):
            self.reference_calls.setdefault(op, case_name)

    def _raise_honesty_flags(self) -> None:
        if self.no_launch_cases:
            first = self.no_launch_cases[0]
            self.emit("flag", name="no_triton_kernel", blocking=True,
                      detail=f"no Triton kernel was launched in {len(self.no_launch_cases)} "
                             f"checked call(s) (first in case {first!r}); this is a Triton drill")
        if self.reference_calls:
            ops = ", ".join(f"{op} (case {case!r})" for op, case in self.reference_calls.items())
            self.emit("flag", name="calls_reference", blocking=True,
                      detail=f"the solution called the op it is meant to implement: {ops}")

    def _raise_if_cuda(self, exc: BaseException) -> None:
        text = f"{type(exc).__name__}: {exc}"
        if self.mode != "gpu" or not _is_cuda_error(exc):
            return
        last = self.counter.last
        file, line = _user_frame(exc.__traceback__, self.user_file)
        where = ""
        if last is not None and last.line is not None:
            file, line = last.file, last.line
            where = (f" The last Triton launch before it was {last.kernel} at "
                     f"{os.path.basename(last.file or '')}:{last.line}.")
        raise CudaFault(_trim(text.strip()) + where, file, line, traceback.format_exc())

    def _describe(self, exc: BaseException) -> str:
        if isinstance(exc, SystemExit):
            return f"called sys.exit({exc.code!r}) inside the solution"
        line = _user_line(exc.__traceback__, self.user_file)
        where = f" ({os.path.basename(self.user_file)}, line {line})" if line else ""
        return _trim(f"raised {type(exc).__name__}: {exc}{where}")

    # ----- timing -------------------------------------------------------------------
    def bench(self) -> None:
        if self.mode != "gpu":
            self.emit("bench_info", available=False, copy_gbps=None,
                      note="timing needs a GPU: this run used the Triton interpreter on the "
                           "CPU, so only correctness was checked")
            return
        if self.failed_cases or self.no_launch_cases or self.reference_calls:
            self.emit("bench_info", available=False, copy_gbps=None,
                      note="not timed: the solution does not pass the checks")
            return
        from studio.drills.harness.timing import device_facts

        facts = device_facts(self.request.get("cache_dir"), self.device_name, self.versions,
                             self.log)
        copy_gbps = facts.get("copy_gbps")
        self.emit("bench_info", available=True, copy_gbps=copy_gbps,
                  note=f"median of many calls, L2 flushed before each; "
                       f"% of peak is of the measured copy bandwidth {copy_gbps:.0f} GB/s")
        points = []
        for dtype in self.drill["bench"]["dtypes"]:
            for shape in self.drill["bench"]["shapes"]:
                points.append(self.bench_point(list(shape), dtype, copy_gbps))
                self.emit("bench_point", **points[-1])
        detail = suspicious_speedup(points)
        if detail:
            self.emit("flag", name="suspicious_speedup", blocking=False, detail=detail)
        self.check_all(1, phase="recheck")

    def bench_point(self, shape: list[int], dtype_name: str,
                    copy_gbps: float | None) -> dict[str, Any]:
        from studio.drills.harness.checks import compare
        from studio.drills.harness.inputs import dtype_of
        from studio.drills.harness.timing import time_pair

        torch = self.torch
        case = {"name": f"bench {shape} {dtype_name}", "shape": shape, "dtype": dtype_name,
                "fill": "randn", "layout": "contiguous"}
        point: dict[str, Any] = {"size": shape, "dtype": dtype_name,
                                 "bytes": int(self.spec.bytes_moved(case)),
                                 "flops": int(getattr(self.spec, "flops", lambda c: 0)(case))}
        seed = _stable_seed(self.base_seed, "bench", shape, dtype_name)
        inputs = self.spec.make_inputs(case, torch.Generator().manual_seed(seed), self.device)
        tol = self.drill["tolerances"][dtype_name]
        try:
            out = self.fn(*inputs)
            self._sync()
            verdict = compare(out, self.spec.reference(*inputs), device=self.device,
                              dtype=self._output_dtype(inputs, dtype_of(dtype_name)),
                              atol=tol["atol"], rtol=tol["rtol"], poisoned=False)
            del out
            if not verdict.passed:
                return {**point, "passed": False, "error": verdict.error}
            (ms, p20, p80), (ref_ms, ref_p20, ref_p80) = time_pair(
                lambda: self.fn(*inputs), lambda: self.spec.baseline(*inputs))
        except (Exception, SystemExit) as exc:
            self._raise_if_cuda(exc)
            return {**point, "passed": False, "error": self._describe(exc)}
        gbps = point["bytes"] / (ms * 1e-3) / 1e9
        ref_gbps = point["bytes"] / (ref_ms * 1e-3) / 1e9
        return {
            **point, "passed": True, "ms": ms, "p20": p20, "p80": p80,
            "ref_ms": ref_ms, "ref_p20": ref_p20, "ref_p80": ref_p80,
            "gbps": gbps, "ref_gbps": ref_gbps,
            "tflops": point["flops"] / (ms * 1e-3) / 1e12 if point["flops"] else None,
            "pct_of_peak": 100.0 * gbps / copy_gbps if copy_gbps else None,
            "ref_pct_of_peak": 100.0 * ref_gbps / copy_gbps if copy_gbps else None,
            "speedup": ref_ms / ms,
        }


def suspicious_speedup(points: list[dict[str, Any]]) -> str | None:
    """A note for the fastest point more than SUSPICIOUS_SPEEDUP x faster than torch, if any."""
    fast = [p for p in points if (p.get("speedup") or 0) > SUSPICIOUS_SPEEDUP]
    if not fast:
        return None
    top = max(fast, key=lambda p: p["speedup"])
    return (f"{top['speedup']:.1f}x faster than torch at {top['size']} {top['dtype']}: worth a "
            f"second look (cached results? skipped work?)")


def _import_file(name: str, path: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _user_frame(tb: Any, user_file: str) -> tuple[str | None, int | None]:
    """File and line of the deepest traceback frame inside the solution file."""
    found: tuple[str | None, int | None] = (None, None)
    while tb is not None:
        if os.path.realpath(tb.tb_frame.f_code.co_filename) == user_file:
            found = (user_file, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _user_line(tb: Any, user_file: str) -> int | None:
    return _user_frame(tb, user_file)[1]


def _is_cuda_error(exc: BaseException) -> bool:
    text = f"{type(exc).__name__} {exc}"
    return ("CUDA error" in text or "AcceleratorError" in text or "illegal memory access" in text
            or "CUDA_ERROR" in text or "cudaError" in text)
