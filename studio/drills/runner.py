"""DrillRunner: runs a solution against a drill in fresh child processes.

The parent side of the drill protocol (DESIGN.md, "Drills: the protocol"). Each run
starts the judge, `python -m studio.drills.harness`, through a target (targets/): this
machine (targets/local.py: the configured interpreter in its own process group, events
over a socketpair) or a remote host over SSH (targets/ssh.py); the judge starts the
worker that imports the user's code (harness/judge.py). Whatever the target, the runner
reads the same three streams: typed events as JSON lines on a channel of their own, and
the solution's stdout and stderr, kept up to a size limit, so prints of any size or
content cannot confuse or swamp the parent. The judge enforces the time and memory limits on the
worker; the runner's own deadline, a little later, is the backstop. Stop (or the
backstop) sends SIGTERM to the judge, which ends the worker tree, then SIGKILL to the
group. Every way a run can end (passed, failed, hang, crash, CUDA error, bad file)
becomes a RunResult; the parent never dies with a child.

This module never imports torch, triton or Qt: the GUI imports it and drives it from a
worker thread, iterating `events()` (or passing `on_event` to `run()`), and calling
`stop()` from the UI thread.
"""

from __future__ import annotations

import codecs
import json
import os
import selectors
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

from studio import paths
from studio.drills.crash import crash_info
from studio.drills import languages
from studio.drills.catalog import DrillError, DrillSpec, get_drill
from studio.drills.events import (
    BenchInfo, BenchPointEvent, CaseResultEvent, CaseStarted, ChildFinished, ConsoleOutput,
    BuildFinished, DrillEvent, ErrorEvent, Finished, FlagRaised, LogMessage, RunStarted, parse_wire_event,
)
from studio.drills.result import (
    BLOCKING_FLAGS, ERROR_STATUSES, FAILED, PASSED, ErrorInfo, RunResult,
)
from studio.drills.targets import Child, Target, TargetError
from studio.drills.targets.local import LocalTarget

OUTPUT_LIMIT = 1 << 20           # bytes of stdout (and of stderr) kept per run
EVENT_LINE_LIMIT = 16 << 20      # a longer event line is a protocol error
CHECK_TIMEOUT_S = 120.0
BENCH_TIMEOUT_S = 600.0
_EXIT_GRACE_S = 1.0              # after the child exits, wait this long for pipes to close
_BACKSTOP_S = 10.0               # the judge enforces the limit; the runner acts this much later
_TERM_GRACE_S = 2.0              # after SIGTERM, the judge has this long to clean up
MEMORY_LIMIT_GIB = 8.0


@dataclass
class RunRequest:
    """What to run. `solution` may be a path or @solution / @starter-triton / @starter-torch."""

    drill: str
    solution: str | Path
    bench: bool = False
    interpret: bool = False
    timeout_s: float | None = None
    lang: str = "auto"           # "auto" (does the file import triton?), "triton", "torch"
    seed: int | None = None
    trials: int | None = None
    memory_limit_gib: float = MEMORY_LIMIT_GIB
    # A problem from a source other than the catalogue (a user's bench spec, later GPU MODE
    # and LeetGPU folders): the judge's drill dictionary, used instead of looking up `drill`.
    problem: dict | None = None
    protocol: str = "engine"     # timing protocol: engine | do_bench | cudagraph (DESIGN.md)
    world_size: int | None = None   # a parallelism drill's ranks (None: the drill's default)
    compile_baseline: bool = False  # with bench: also time torch.compile of the drill's torch baseline

    @property
    def timeout(self) -> float:
        if self.timeout_s is not None:
            return float(self.timeout_s)
        return BENCH_TIMEOUT_S if self.bench else CHECK_TIMEOUT_S


def resolve_solution(spec: DrillSpec, solution: str | Path) -> Path:
    """A solution path, or one of the drill's own files by alias."""
    text = str(solution)
    if text == "@solution" and spec.solution is not None:
        return spec.solution
    if text == "@starter-triton":
        return spec.starter("triton")
    if text == "@starter-torch":
        return spec.starter("torch")
    if text == "@starter-cuda":
        return spec.starter("cuda")
    if text == "@solution-cuda":
        if spec.solution_cuda is None:
            raise DrillError(f"drill {spec.id!r} has no CUDA reference solution")
        return spec.solution_cuda
    return Path(text).expanduser().resolve()


class _Capture:
    """One output stream of the child: decoded, kept up to a byte limit, rest counted."""

    def __init__(self, name: str, limit: int) -> None:
        self.name = name
        self.limit = limit
        self.kept = 0
        self.dropped = 0
        self.parts: list[str] = []
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, data: bytes) -> str:
        room = self.limit - self.kept
        keep, drop = data[:max(room, 0)], data[max(room, 0):]
        self.kept += len(keep)
        self.dropped += len(drop)
        text = self._decoder.decode(keep) if keep else ""
        if text:
            self.parts.append(text)
        return text

    def text(self) -> str:
        body = "".join(self.parts) + self._decoder.decode(b"", final=True)
        if self.dropped:
            body += f"\n[... {self.dropped} more bytes of {self.name} dropped: output is kept up to {self.limit} bytes]\n"
        return body


class DrillRunner:
    """Starts runs in child processes and turns what they report into events and results."""

    def __init__(self, python: str | None = None, *, kernels_dir: Path | None = None,
                 cache_dir: Path | None = None, output_limit: int = OUTPUT_LIMIT,
                 env: dict[str, str] | None = None, target: Target | None = None) -> None:
        self.python = python or sys.executable
        self.kernels_dir = kernels_dir
        self.cache_dir = cache_dir
        self.output_limit = output_limit
        self.env = env
        self.target = target if target is not None else LocalTarget(self.python, env)
        self._lock = threading.Lock()
        self._proc: Child | None = None
        self._stop_requested = False

    # ----- public API ---------------------------------------------------------------
    def run(self, request: RunRequest,
            on_event: Callable[[DrillEvent], None] | None = None) -> RunResult:
        """Run to the end, passing each event to on_event; returns the final result."""
        result = None
        for event in self.events(request):
            if on_event is not None:
                on_event(event)
            if isinstance(event, Finished):
                result = event.result
        assert result is not None
        return result

    def stop(self) -> None:
        """Kill the running child (its whole process group); safe from any thread."""
        with self._lock:
            self._stop_requested = True
            proc = self._proc
        if proc is not None:
            proc.terminate()

    def events(self, request: RunRequest) -> Iterator[DrillEvent]:
        """Start a run and yield its events as they arrive; the last one is Finished."""
        started = time.monotonic()
        result = RunResult(drill=request.drill, file=str(request.solution),
                           started_at=datetime.now(timezone.utc).isoformat(timespec="seconds"))
        result.bench.requested = request.bench
        with self._lock:
            self._stop_requested = False
        try:
            if request.problem is not None:
                problem = request.problem
                solution = Path(str(request.solution)).expanduser().resolve()
            else:
                spec = get_drill(request.drill, self.kernels_dir)
                problem = spec.to_request()
                solution = resolve_solution(spec, request.solution)
        except DrillError as exc:
            yield self._finish(result, started, "bad_drill", ErrorInfo("bad_drill", str(exc)))
            return
        result.file = str(solution)
        try:
            lang = languages.resolve(request.lang, solution, own_kernel=bool(problem.get("pack_problem")))
        except ValueError as exc:
            yield self._finish(result, started, "bad_request", ErrorInfo("bad_request", str(exc)))
            return
        if not solution.is_file():
            yield self._finish(result, started, "import_error",
                               ErrorInfo("import_error", f"solution file not found: {solution}",
                                         file=str(solution)))
            return
        workdir = Path(tempfile.mkdtemp(prefix="studio-drill-"))
        try:
            yield from self._run_child(request, problem, solution, lang, workdir, result, started)
        finally:
            with self._lock:
                proc, self._proc = self._proc, None
            if proc is not None and proc.poll() is None:
                proc.kill_group()
                proc.wait()
            shutil.rmtree(workdir, ignore_errors=True)

    # ----- the child ------------------------------------------------------------------
    def _request_payload(self, request: RunRequest, problem: dict, solution: Path, lang: str,
                         workdir: Path) -> dict:
        """The judge's request (its paths are this machine's; a remote target maps them)."""
        cache_dir = self.cache_dir if self.cache_dir is not None else paths.cache_dir()
        payload = {
            "drill": problem,
            "solution": str(solution),
            "lang": lang,
            "bench": request.bench,
            "protocol": request.protocol,
            "compile_baseline": request.compile_baseline,
            "world_size": request.world_size,
            "interpret": request.interpret,
            "seed": request.seed,
            "trials": request.trials,
            "timeout_s": request.timeout,
            "memory_limit_gib": request.memory_limit_gib,
            "cache_dir": str(cache_dir),
            "faulthandler_log": str(workdir / "faulthandler.log"),
        }
        return payload

    def _run_child(self, request: RunRequest, problem: dict, solution: Path, lang: str, workdir: Path,
                   result: RunResult, started: float) -> Iterator[DrillEvent]:
        payload = self._request_payload(request, problem, solution, lang, workdir)
        try:
            proc = self.target.start(payload, workdir)
        except TargetError as exc:
            yield self._finish(result, started, exc.kind, ErrorInfo(exc.kind, str(exc)))
            return
        with self._lock:
            self._proc = proc
            stop_now = self._stop_requested
        if stop_now:
            proc.terminate()
        state = _ChildState(result)
        # A CUDA build gets its own budget on top of the run's limit (the judge stretches its
        # deadline by the time the build took); this backstop leaves room for it.
        build = languages.cuda.BUILD_BUDGET_S if lang == "cuda" else 0.0
        yield from self._pump(proc, proc.event_fd, request.timeout + build, state)
        proc.wait()
        with self._lock:   # stop() may have killed it before the loop saw the request
            if self._stop_requested and not (state.finished or state.timed_out):
                state.stopped = True
        result.exit_code = proc.returncode
        yield self._conclude(result, state, workdir, started, request.timeout)

    def _pump(self, proc: Child, event_fd: int, timeout: float,
              state: "_ChildState") -> Iterator[DrillEvent]:
        """Read the three pipes until they close, the deadline passes or stop() is called."""
        captures = {proc.stdout.fileno(): _Capture("stdout", self.output_limit),
                    proc.stderr.fileno(): _Capture("stderr", self.output_limit)}
        state.captures = captures
        selector = selectors.DefaultSelector()
        selector.register(event_fd, selectors.EVENT_READ)
        for fd in captures:
            selector.register(fd, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout + _BACKSTOP_S
        exited_at: float | None = None
        terminated_at: float | None = None
        buffer = b""
        try:
            while selector.get_map():
                now = time.monotonic()
                if terminated_at is None:
                    if self._stop_requested:
                        state.stopped = True
                        terminated_at = now
                        proc.terminate()
                    elif now >= deadline:
                        state.timed_out = True
                        terminated_at = now
                        proc.terminate()
                elif not state.killed and now - terminated_at > _TERM_GRACE_S:
                    state.killed = True
                    proc.kill_group()
                if proc.poll() is not None:
                    exited_at = exited_at or now
                    if now - exited_at > _EXIT_GRACE_S:
                        break     # a grandchild holds a pipe open; stop listening
                for key, _ in selector.select(timeout=0.1):
                    fd = key.fd
                    data = os.read(fd, 1 << 16)
                    if not data:
                        selector.unregister(fd)
                        continue
                    if fd == event_fd:
                        buffer += data
                        lines = buffer.split(b"\n")
                        buffer = lines.pop()
                        if len(buffer) > EVENT_LINE_LIMIT:
                            buffer = b""
                            yield LogMessage("warning", "dropped an oversized event line")
                        for line in lines:
                            event = self._decode(line, state)
                            if event is not None:
                                yield event
                    else:
                        text = captures[fd].feed(data)
                        if text:
                            yield ConsoleOutput(captures[fd].name, text)
        finally:
            selector.close()
            os.close(event_fd)
            proc.stdout.close()
            proc.stderr.close()

    def _decode(self, line: bytes, state: "_ChildState") -> DrillEvent | None:
        if not line.strip():
            return None
        try:
            event = parse_wire_event(json.loads(line))
        except (ValueError, TypeError) as exc:
            return LogMessage("warning", f"unreadable event from the harness: {exc}")
        return state.apply(event)

    # ----- the verdict --------------------------------------------------------------
    def _conclude(self, result: RunResult, state: "_ChildState", workdir: Path,
                  started: float, timeout: float) -> Finished:
        result.console.stdout = state.captures_text("stdout")
        result.console.stderr = state.captures_text("stderr")
        result.console.stdout_dropped_bytes = state.dropped("stdout")
        result.console.stderr_dropped_bytes = state.dropped("stderr")
        during = f" while running case {state.current_case!r}" if state.current_case else ""
        if state.stopped:
            return self._finish(result, started, "stopped",
                                ErrorInfo("stopped", f"stopped by the user{during}"))
        if state.timed_out:
            return self._finish(result, started, "timeout", ErrorInfo(
                "timeout", f"no result within the {timeout:g} s time limit{during}: the "
                           f"solution hangs or is far too slow; the process was killed"))
        if state.error is not None:
            kind = state.error.kind if state.error.kind in ERROR_STATUSES else "harness_error"
            return self._finish(result, started, kind, state.error)
        if not state.finished:
            return self._finish(result, started, "crash",
                                crash_info(result.exit_code, during,
                                           workdir / "faulthandler.log", result.file))
        failed = (any(not c.passed for c in result.cases)
                  or any(f.blocking or f.name in BLOCKING_FLAGS for f in result.flags)
                  or any(not p.passed for p in result.bench.points))
        return self._finish(result, started, FAILED if failed else PASSED, None)

    @staticmethod
    def _finish(result: RunResult, started: float, status: str,
                error: ErrorInfo | None) -> Finished:
        result.status = status
        if error is not None:
            result.error = error
        result.duration_s = round(time.monotonic() - started, 3)
        return Finished(result)


class _ChildState:
    """What the runner has learned about the child so far."""

    def __init__(self, result: RunResult) -> None:
        self.result = result
        self.captures: dict[int, _Capture] = {}
        self.current_case: str | None = None
        self.error: ErrorInfo | None = None
        self.finished = False
        self.killed = self.stopped = self.timed_out = False

    def apply(self, event: object) -> DrillEvent | None:
        """Fold one wire event into the result; returns the event to pass on (or None)."""
        result = self.result
        if isinstance(event, RunStarted):
            result.mode, result.device = event.mode, event.device
            result.versions, result.lang = dict(event.versions), event.lang
            result.world_size, result.backend = event.world_size, event.backend
        elif isinstance(event, CaseStarted):
            self.current_case = event.name
        elif isinstance(event, BuildFinished):
            result.builds.append({"name": event.name, "seconds": event.seconds, "cached": event.cached,
                                  "toolkit": event.toolkit, "arch": event.arch, "flags": list(event.flags or []),
                                  "warnings": len(event.warnings or [])})
        elif isinstance(event, CaseResultEvent):
            self.current_case = None
            result.cases.append(event.result)
        elif isinstance(event, BenchInfo):
            result.bench.available, result.bench.note = event.available, event.note
            result.bench.copy_gbps = event.copy_gbps
            result.bench.matmul_tflops = event.matmul_tflops
        elif isinstance(event, BenchPointEvent):
            result.bench.points.append(event.point)
        elif isinstance(event, FlagRaised):
            result.flags.append(event.flag)
        elif isinstance(event, ErrorEvent):
            self.error = event.error
        elif isinstance(event, ChildFinished):
            self.finished = True
            return None
        return event  # type: ignore[return-value]

    def _capture(self, name: str) -> _Capture | None:
        return next((c for c in self.captures.values() if c.name == name), None)

    def captures_text(self, name: str) -> str:
        capture = self._capture(name)
        return capture.text() if capture else ""

    def dropped(self, name: str) -> int:
        capture = self._capture(name)
        return capture.dropped if capture else 0

