"""The worker: the only process that imports the user's code. It computes and reports.

Started by the judge as `python -m studio.drills.harness.worker --cmd-fd N --reply-fd M`.
It receives inputs (tensors the judge allocated and shared) and returns what the
solution made of them: the output's bytes go into a buffer the judge shared for them,
and a JSON reply says what the output is (type, shape, dtype, device), what the solution
did on the way (Triton launches, reference ops, where its output came from) and how long
it took. It holds no reference, no expected values, no comparison and no channel to the
app: its replies are raw material the judge checks, never a verdict.

Before the user's module is imported the worker captures what it relies on (timing
primitives, the dispatcher entries of its own ops, the threads alive), hooks the drill's
reference ops in the dispatcher, and restricts itself (sandbox.py). It dies with the
judge (PR_SET_PDEATHSIG). Its stdout and stderr are the solution's console.
"""

from __future__ import annotations

import argparse
import ctypes
import faulthandler
import importlib.util
import os
import signal
import sys
import time
import traceback
import types
from typing import Any, Callable

from studio.drills.harness.channel import ChannelClosed, receive_command, send_reply

PR_SET_PDEATHSIG = 1
DUMP_SIGNAL = signal.SIGUSR1   # -> the worker's Python stacks into its fault log
MAX_MESSAGE = 4000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="studio.drills.harness.worker")
    parser.add_argument("--cmd-fd", type=int, required=True)
    parser.add_argument("--reply-fd", type=int, required=True)
    parser.add_argument("--fault-log", default=None)
    args = parser.parse_args(argv)
    _die_with_parent()
    for fd in (args.cmd_fd, args.reply_fd):
        os.set_inheritable(fd, False)
    if args.fault_log:
        fault_log = open(args.fault_log, "w")  # noqa: SIM115 - process lifetime
        faulthandler.enable(file=fault_log)
        # The judge asks for the stacks before killing a worker that ran out of time, to name
        # the line of the user's file that was running (a hang's file and line).
        faulthandler.register(DUMP_SIGNAL, file=fault_log, all_threads=True)
    worker = Worker(args.reply_fd)
    try:
        while True:
            try:
                command = receive_command(args.cmd_fd)
            except ChannelClosed:
                return 0
            if command.get("op") == "exit":
                return 0
            worker.handle(command)
    except CudaFault as fault:
        send_reply(args.reply_fd, {"error": fault.info})
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(3)   # CUDA teardown after a sticky error can hang; leave now


def _die_with_parent() -> None:
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class CudaFault(Exception):
    """A CUDA error: the context is unusable, this process must end after reporting it."""

    def __init__(self, info: dict[str, Any]) -> None:
        super().__init__(info["message"])
        self.info = info


class Worker:
    def __init__(self, reply_fd: int) -> None:
        self.reply_fd = reply_fd
        interpret = os.environ.get("TRITON_INTERPRET") == "1"
        import torch

        if not interpret and not torch.cuda.is_available():
            interpret = True
            os.environ["TRITON_INTERPRET"] = "1"
        self.torch = torch
        self.mode = "interpreter" if interpret else "gpu"
        try:   # tqdm (torch.compile's autotuning progress) starts no monitor thread: the
            import tqdm   # background-threads check would count it as the solution's

            tqdm.tqdm.monitor_interval = 0
        except ImportError:
            pass
        try:
            import triton
            triton_version = triton.__version__
        except ImportError:
            triton_version = None
        from studio.drills.harness.honesty import DispatchSnapshot, active_modes

        self.loop = None
        if self.mode == "gpu":
            from studio.drills.harness.timed_loop import TimedLoop
            self.loop = TimedLoop()
        self.dispatch = DispatchSnapshot()
        self.modes_at_start = active_modes()
        self.known_threads = set(sys._current_frames())
        self.fn: Callable | None = None
        self.previous_out: Any = None
        self.previous_key: int | None = None   # its storage, taken when it was returned (a CUDA
                                               # graph's output may not be touched after the next replay)
        self.call_style = "args"            # how the problem calls the solution (see _invoke)
        self.outputs: list[int] = []        # a pack problem's output arguments, per call
        self.inouts: set[int] = set()        # a LeetGPU problem's "inout" arguments (read, then written)
        self.single = False                 # a GPU MODE problem whose `data` is one tensor, not a tuple
        self.parts: list[Any] | None = None # the tensors of a tuple a GPU MODE solution returned
        self.bench_state: dict[str, Any] = {}
        self.builder: Any = None           # CudaBuilder, for CUDA solutions
        self.kernel_watch: Any = None      # the last call's KernelWatch (CUDA)
        self.reply({"ready": True, "mode": self.mode, "pid": os.getpid(),
                    "versions": {"triton": triton_version}})

    # ----- plumbing -----------------------------------------------------------------
    def reply(self, payload: dict[str, Any]) -> None:
        send_reply(self.reply_fd, payload)

    def sync(self) -> None:
        if self.mode == "gpu":
            self.torch.cuda.synchronize()

    def handle(self, command: dict[str, Any]) -> None:
        op = command.get("op")
        handler = {"load": self.load, "call": self.call, "bench_setup": self.bench_setup,
                   "time": self.time}.get(op)
        if handler is None:
            self.reply({"error": {"kind": "harness_error", "message": f"unknown command {op!r}"}})
            return
        self.reply(handler(command))

    # ----- load -----------------------------------------------------------------------
    def load(self, command: dict[str, Any]) -> dict[str, Any]:
        from studio.drills.harness import sandbox
        from studio.drills.harness.honesty import DispatchSnapshot, LaunchCounter, OpHooks

        self.user_file = os.path.realpath(command["solution"])
        self.lang = command["lang"]
        self.banned = {op.strip("_") for op in command.get("banned_ops") or []}
        self.hooks = OpHooks(self.banned)
        self.dispatch = DispatchSnapshot()      # our own hooks are part of the baseline
        self.counter = LaunchCounter(self.user_file, self.sync)
        sandbox_note = sandbox.restrict_worker(list(command.get("writable") or []))
        sys.path.insert(0, os.path.dirname(self.user_file))
        for folder in reversed(command.get("import_paths") or []):   # a GPU MODE problem's task.py, utils.py
            sys.path.insert(1, str(folder))
        self.entry, self.signature = command["entry"], command["signature"]
        self.call_style = command.get("call_style") or "args"
        if self.lang == "cuda":
            from studio.drills.harness.cuda_build import BuildFailed, CudaBuilder
            from studio.drills.languages.cuda import SUFFIXES

            try:
                self.builder = CudaBuilder(self.user_file, command["cuda_cache"])
                if self.user_file.endswith(SUFFIXES) and command.get("native"):   # LeetGPU's extern "C" solve
                    self.fn = self.builder.build_native(self.entry, [list(p) for p in command["native"]])
                    return self._loaded(sandbox_note)
                if self.user_file.endswith(SUFFIXES):
                    self.fn = self.builder.build_file(self.entry, self.signature)
                    return self._loaded(sandbox_note)
            except BuildFailed as failed:
                return {"error": failed.info}
        try:
            with self.hooks.watching(), self._building():
                module = import_file("drill_solution", self.user_file)
        except SyntaxError as exc:
            where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
            text = (exc.text or "").rstrip()
            return self._error("syntax_error", f"{exc.msg} ({os.path.basename(self.user_file)}, "
                               f"{where})" + (f"\n    {text}" if text else ""), line=exc.lineno)
        except BaseException as exc:  # noqa: BLE001 - the user's module may raise anything
            if isinstance(exc, KeyboardInterrupt):
                raise
            if type(exc).__name__ == "BuildFailed":
                return {"error": exc.info}
            self._raise_if_cuda(exc)
            line = _user_line(exc.__traceback__, self.user_file)
            return self._error("import_error", f"importing {os.path.basename(self.user_file)} "
                               f"raised {type(exc).__name__}: {exc}"
                               + (f" (line {line})" if line else ""), line=line,
                               tb=traceback.format_exc())
        entry = command["entry"]
        fn = getattr(module, entry, None)
        if not callable(fn):
            defined = sorted(n for n, v in vars(module).items()
                             if callable(v) and getattr(v, "__module__", None) == module.__name__)
            return self._error("missing_entry", f"{os.path.basename(self.user_file)} defines no "
                               f"function `{entry}`: the drill calls {command['signature']}"
                               + (f" (found: {', '.join(defined)})" if defined else ""))
        self.fn = fn
        return self._loaded(sandbox_note)

    def _loaded(self, sandbox_note: str) -> dict[str, Any]:
        builds = [r.to_dict() for r in self.builder.records] if self.builder is not None else []
        if self.builder is not None and not self.builder.kernels:
            self.builder.kernels.update(_kernels_in_file(self.user_file))
        return {"loaded": True, "sandbox": sandbox_note, "hooked_ops": len(self.hooks.hooked), "builds": builds}

    def _building(self) -> Any:
        """A .py CUDA solution's load_inline goes through the build cache while it imports."""
        import contextlib

        if self.builder is None:
            return contextlib.nullcontext()
        return self.builder.intercepting_load_inline()

    def _error(self, kind: str, message: str, line: int | None = None,
               tb: str | None = None) -> dict[str, Any]:
        return {"error": {"kind": kind, "message": _trim(message), "file": self.user_file,
                          "line": line, "traceback": tb}}

    # ----- one checked call ---------------------------------------------------------------
    def call(self, command: dict[str, Any]) -> dict[str, Any]:
        from studio.drills.harness.checks import allocation_problem

        args = list(command["args"])
        self.outputs = [int(i) for i in command.get("outputs") or []]
        self.inouts = {int(i) for i in command.get("inouts") or []}
        self.single = bool(command.get("single"))
        track = self.lang == "triton"
        given = self._given_outputs(args) if track else {}
        started = time.perf_counter()
        out, watch, raised = self._watched_call(args, track)
        elapsed = time.perf_counter() - started
        if raised is not None:
            return {"raised": raised, **self._observations(watch)}
        reply = {**self._observations(watch), **self._describe_output(out, args),
                 "call_s": elapsed, **self._parts()}
        problems = [p for p in (allocation_problem(op, b) for op, b in watch.allocations) if p]
        if reply.get("problem"):
            problems.insert(0, reply.pop("problem"))
        reply["problems"] = problems
        reply["poisoned"] = watch.output_buffer(out) is not None
        if track and type(out) is self.torch.Tensor:
            reply["provenance"] = self._provenance(watch, out, args, given)
        reply["copied"] = self._stage(out, command.get("staging"))
        self._remember(out)
        return reply

    def _provenance(self, watch: Any, out: Any, args: list[Any], given: dict[int, Any]) -> str | None:
        """Why the output was not written by the solution's Triton kernels (or None); with
        several output buffers, each of them is asked."""
        if self.call_style == "inplace" and len(self.outputs) > 1:
            problems = (watch.provenance_problem(args[i], given, may_stay=i in self.inouts) for i in self.outputs
                        if i < len(args) and type(args[i]) is self.torch.Tensor)
            return next((p for p in problems if p), None)
        if self.call_style == "inplace" and self.outputs:
            return watch.provenance_problem(out, given, may_stay=self.outputs[0] in self.inouts)
        if self.parts is not None:   # a tuple, joined: each tensor of it is asked
            problems = (watch.provenance_problem(t, given) for t in self.parts)
            return next((p for p in problems if p), None)
        return watch.provenance_problem(out, given)

    def _parts(self) -> dict[str, Any]:
        """The shape and dtype of each tensor of a returned tuple (sent joined)."""
        if self.parts is None:
            return {}
        return {"parts": [[list(t.shape), str(t.dtype).replace("torch.", "")] for t in self.parts]}

    def _remember(self, out: Any) -> None:
        from studio.drills.harness.honesty import storage_key

        self.previous_out = out
        self.previous_key = (storage_key(out) if type(out) is self.torch.Tensor and out.numel() else None)

    def _given_outputs(self, args: list[Any]) -> dict[int, Any]:
        """A pack problem's output buffers as they are before the call (provenance: a Triton
        kernel writing the buffer it was handed produced the output)."""
        from studio.drills.harness.honesty import _storage, storage_key, trusted

        given = {}
        with trusted():
            for i in self.outputs:
                if i < len(args) and isinstance(args[i], self.torch.Tensor) and args[i].numel():
                    given[storage_key(args[i])] = _storage(args[i]).clone()
        return given

    def _watched_call(self, args: list[Any], track: bool) -> tuple[Any, Any, str | None]:
        """(output, watch, None) or (None, watch, what it raised): one instrumented call.

        The watch is read only after the instrumentation is gone, so the spy's own
        TorchFunctionMode is never mistaken for one the solution left installed.
        """
        import contextlib

        from studio.drills.harness.honesty import watching

        kernels: Any = contextlib.nullcontext()
        if self.lang == "cuda" and self.mode == "gpu" and self.builder is not None:
            from studio.drills.harness.cuda_build import KernelWatch

            kernels = self.kernel_watch = KernelWatch(self.torch, set(self.builder.kernels))
        with watching(self.counter, track=track) as watch, self.hooks.watching():
            try:
                with kernels:
                    out = self._invoke(args)
                    self.sync()
            except (Exception, SystemExit) as exc:
                self._raise_if_cuda(exc)
                return None, watch, self._describe(exc)
        return out, watch, None

    def _invoke(self, args: list[Any]) -> Any:
        """The solution, called as its problem calls it: f(*args) (drills), f(data) with the
        whole tuple (GPU MODE's custom_kernel), or f(*args) writing its output in place
        (LeetGPU's solve: the output is the output argument)."""
        style = self.call_style
        self.parts = None
        if style == "tuple":
            out = self.fn(args[0] if self.single and len(args) == 1 else tuple(args))
            if isinstance(out, (tuple, list)) and out and all(type(t) is self.torch.Tensor for t in out):
                # several outputs (GPU MODE's fp8_quant, QR): joined as the judge's reference is
                from studio.drills.harness.honesty import trusted
                from studio.drills.harness.pack_problem import joined

                self.parts = list(out)
                with trusted():
                    return joined(self.parts)
            return out
        out = self.fn(*args)
        if style == "inplace" and len(self.outputs) > 1:   # every output, joined (pack_problem.joined)
            from studio.drills.harness.honesty import trusted
            from studio.drills.harness.pack_problem import joined

            with trusted():
                return joined([args[i] for i in self.outputs])
        if style == "inplace":
            return args[self.outputs[0]] if self.outputs else out
        return out

    def _invoke_timed(self, *work: Any) -> Any:
        """A pack problem's solution in the timed loop: as _invoke, but with several outputs
        the first one stands for the call (its checksum is checked; joining them would be
        timed as the solution's)."""
        if self.call_style == "inplace" and len(self.outputs) > 1:
            self.fn(*work)
            return work[self.outputs[0]]
        if self.call_style == "tuple":
            out = self.fn(work[0] if self.single and len(work) == 1 else tuple(work))
            return out[0] if isinstance(out, (tuple, list)) and out else out
        return self._invoke(list(work))

    def _observations(self, watch: Any) -> dict[str, Any]:
        from studio.drills.harness.honesty import active_modes, foreign_threads

        python_level = {op for op in watch.ops if op in self.banned}
        launches, extra = watch.launches, {}
        if self.lang == "cuda" and self.kernel_watch is not None:
            launches = self.kernel_watch.own_launches
            extra = {"library_kernels": self.kernel_watch.library_kernels,
                     "launch_watch_error": self.kernel_watch.error}
        return {
            **extra,
            "launches": launches,
            "reference_ops": sorted(python_level | set(self.hooks.seen)),
            "threads": foreign_threads(self.known_threads),
            "tampered": self._tampering(active_modes()),
        }

    def _tampering(self, modes: int) -> list[str]:
        found = [f"re-registered aten::{op} in torch's dispatcher" for op in self.dispatch.changed()]
        if modes > self.modes_at_start:
            found.append("left a torch function or dispatch mode installed")
        return found

    def _describe_output(self, out: Any, args: list[Any]) -> dict[str, Any]:
        torch = self.torch
        if not isinstance(out, torch.Tensor):
            return {"type": type(out).__name__}
        if type(out) is not torch.Tensor:
            return {"type": type(out).__name__, "subclass": True}
        meta: dict[str, Any] = {
            "type": "Tensor", "shape": list(out.shape), "dtype": str(out.dtype).replace("torch.", ""),
            "device": out.device.type, "contiguous": bool(out.is_contiguous()),
            "nbytes": out.numel() * out.element_size(),
        }
        from studio.drills.harness.honesty import storage_key

        key = storage_key(out) if out.numel() else None
        allowed = set(self.outputs)   # a pack problem's output buffers
        names = {storage_key(a): i for i, a in enumerate(args)
                 if isinstance(a, torch.Tensor) and a.numel() and i not in allowed}
        given = {storage_key(args[i]) for i in allowed
                 if i < len(args) and isinstance(args[i], torch.Tensor) and args[i].numel()}
        if key is not None and key in given:
            pass   # the output buffer it was handed: a timed loop hands the same one every call
        elif key is not None and key in names:
            meta["problem"] = (f"returned its input #{names[key] + 1} (or a view of it): the "
                               f"output must be a new tensor")
        elif key is not None and key == self.previous_key and self.call_style == "args":
            # Our drills' contract. A GPU MODE solution may hand back the same buffer (a CUDA
            # graph's static output under torch.compile(mode="reduce-overhead"), as the clone's
            # own pmpp sort and vectorsum solutions do): its repository accepts that, the
            # output is copied before the next call, and a stale answer still fails the
            # problem's check or the timed calls' checksums.
            meta["problem"] = ("returned the same buffer as the previous call: every call "
                               "must return a new tensor")
        return meta

    def _stage(self, out: Any, staging: Any) -> bool:
        """Copy the output's bytes into the judge's buffer (plain, fitting tensors only)."""
        from studio.drills.harness.honesty import trusted

        torch = self.torch
        if staging is None or type(out) is not torch.Tensor:
            return False
        nbytes = out.numel() * out.element_size()
        if nbytes > staging.numel() or out.device.type != staging.device.type:
            return False
        with trusted():
            if nbytes:
                staging[:nbytes].copy_(out.contiguous().reshape(-1).view(torch.uint8))
            self.sync()
        return True

    # ----- timing -------------------------------------------------------------------------
    def bench_setup(self, command: dict[str, Any]) -> dict[str, Any]:
        """Work buffers for one benchmark point, and one checked call per input set."""
        from studio.drills.harness.honesty import trusted

        sources = [list(s) for s in command["sources"]]
        self.outputs = [int(i) for i in command.get("outputs") or []]
        self.inouts = {int(i) for i in command.get("inouts") or []}
        self.single = bool(command.get("single"))
        with trusted():
            work = [a.clone() if isinstance(a, self.torch.Tensor) else a for a in sources[0]]
            self.sync()
        replies = []
        for index, (source, staging) in enumerate(zip(sources, command["stagings"])):
            with trusted():
                for slot, value in enumerate(source):
                    if isinstance(value, self.torch.Tensor):
                        work[slot].copy_(value)
                    else:          # the set's own scalars (a dropout seed differs per set)
                        work[slot] = value
            track = self.lang == "triton" and index == 0
            given = self._given_outputs(work) if track else {}
            self.kernel_watch = None
            out, watch, raised = self._watched_call(work, track)
            if raised is not None:
                return {"raised": raised, **self._observations(watch)}
            reply = {**self._observations(watch), **self._describe_output(out, work), **self._parts()}
            if track and type(out) is self.torch.Tensor:
                reply["provenance"] = self._provenance(watch, out, work, given)
            reply["copied"] = self._stage(out, staging)
            replies.append(reply)
            self._remember(out)
        self.bench_state = {"work": work, "sources": sources, "ready": self.previous_out}
        return {"sets": replies}

    def time(self, command: dict[str, Any]) -> dict[str, Any]:
        if self.loop is None or not self.bench_state:
            return {"error": {"kind": "harness_error", "message": "timing needs a GPU and a setup"}}
        state = self.bench_state
        empty = command.get("kind") == "empty"
        ready = state["ready"]
        if empty:
            fn = lambda *_: ready  # noqa: E731
        elif self.call_style == "args":
            fn = self.fn
        else:   # a pack problem's solution, called as its problem calls it
            fn = self._invoke_timed
        try:
            with self.hooks.watching():
                result = self._timed(fn, command)
        except (Exception, SystemExit) as exc:
            self._raise_if_cuda(exc)
            return {"raised": self._describe(exc)}
        from studio.drills.harness.honesty import active_modes, foreign_threads

        result["tampered"] = self._tampering(active_modes())
        result["threads"] = foreign_threads(self.known_threads)
        result["reference_ops"] = sorted(self.hooks.seen)
        return result

    def _timed(self, fn: Callable, command: dict[str, Any]) -> dict[str, Any]:
        state, n = self.bench_state, int(command.get("n") or 0)
        if command.get("protocol") in ("do_bench", "cudagraph"):
            return self.loop.stock(fn, state["work"], command["protocol"], float(command.get("rep_ms") or 100))
        if command.get("probe"):
            return self.loop.probe(fn, state["work"], state["sources"], n)
        return self.loop.run(fn, state["work"], state["sources"], n,
                             checksums=bool(command.get("checksums", True)))

    # ----- errors ---------------------------------------------------------------------------
    def _raise_if_cuda(self, exc: BaseException) -> None:
        if self.mode != "gpu" or not _is_cuda_error(exc):
            return
        last = self.counter.last
        file, line = _user_frame(exc.__traceback__, self.user_file)
        where = ""
        if self.lang == "cuda":
            from studio.drills.harness.cuda_build import cuda_error_hint, user_line

            file, line = self.user_file, user_line(str(exc), self.user_file)
            hint = cuda_error_hint(str(exc), self.user_file)
            if hint is not None:
                where, line = f" {hint.text}", line or hint.line
        if last is not None and last.line is not None:
            file, line = last.file, last.line
            where = (f" The last Triton launch before it was {last.kernel} at "
                     f"{os.path.basename(last.file or '')}:{last.line}.")
        text = f"{type(exc).__name__}: {exc}"
        if self.lang == "cuda":   # c10's message goes on with a C++ stack: that is for the console
            text = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0]}"
        raise CudaFault({"kind": "cuda_error", "message": _trim(text.strip()) + where,
                         "file": file, "line": line, "traceback": traceback.format_exc()})

    def _describe(self, exc: BaseException) -> str:
        if isinstance(exc, SystemExit):
            return f"called sys.exit({exc.code!r}) inside the solution"
        if self.lang == "cuda":
            from studio.drills.harness.cuda_build import signature_mismatch, user_line

            mismatch = signature_mismatch(exc, self.entry, self.signature)
            if mismatch:
                return mismatch
            line = user_line(str(exc), self.user_file)
            if line:
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                return _trim(f"raised {type(exc).__name__}: {first} ({os.path.basename(self.user_file)}, line {line})")
        line = _user_line(exc.__traceback__, self.user_file)
        where = f" ({os.path.basename(self.user_file)}, line {line})" if line else ""
        return _trim(f"raised {type(exc).__name__}: {exc}{where}")


def _trim(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + " [...]"


def import_file(name: str, path: str) -> types.ModuleType:
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


def _kernels_in_file(path: str) -> dict[str, int]:
    from studio.drills.languages.cuda import kernel_names

    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return kernel_names(handle.read())
    except OSError:
        return {}


def _user_line(tb: Any, user_file: str) -> int | None:
    return _user_frame(tb, user_file)[1]


def _is_cuda_error(exc: BaseException) -> bool:
    text = f"{type(exc).__name__} {exc}"
    return ("CUDA error" in text or "AcceleratorError" in text or "illegal memory access" in text
            or "CUDA_ERROR" in text or "cudaError" in text)


if __name__ == "__main__":
    raise SystemExit(main())
