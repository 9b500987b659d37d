"""The judge of a parallelism drill: N ranks through torch.distributed, one reference.

Chosen by judge.main when the drill has a `distributed` section (kernels/README.md,
"Parallelism drills"). It starts `world_size` rank processes (dist_rank.py) the way
torchrun does (MASTER_ADDR=127.0.0.1, a free port, RANK, WORLD_SIZE, LOCAL_RANK), on
gloo on the CPU, or on NCCL when this machine has at least world_size GPUs. For every case
it makes each rank's inputs, has every rank call the solution, reads each rank's outputs
back as bytes and compares them with a single-process float64 reference, naming the rank,
the output and the first wrong index of every rank that is wrong.

Failure modes it turns into plain reports:
- a rank that raises: every rank is ended and the case fails with that rank's traceback;
- a rank that dies (signal, os._exit): every rank is ended; status `crash`, its stderr;
- no reply within the case's time limit (mismatched send/recv): status `deadlock`, and
  for every rank the torch.distributed op it was waiting in (from its status file);
- every rank process is killed and waited for at the end, so no process and no port is
  left behind.

With --bench it times the solution and the library collective (a second process group
whose ranks never import the solution) over the drill's size sweep, and reports algbw
and busbw as nccl-tests defines them.
"""

from __future__ import annotations

import json
import os
import platform
import random
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any

from studio.drills.harness import sandbox
from studio.drills.harness.dist_common import (
    bus_factor, bus_factor_text, read_status, read_values, write_values, _Unreadable,
)
from studio.drills.harness.wire import EventWriter

GIB = 1 << 30
START_TIMEOUT_S = 90.0        # ranks import torch and meet; on a 2-core CI box this takes a while
FAILURE_GRACE_S = 0.5         # after a first failure, wait this long for the rank that caused it
DEFAULT_CASE_TIMEOUT_S = 30.0
BENCH_ROUND_S = 0.25
STDERR_TAIL = 6000
NO_MULTICAST_ENV = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}


class Stop(Exception):
    """The run ends early; the events that say why are sent."""


class RankFailure(Exception):
    def __init__(self, kind: str, rank: int, info: dict[str, Any]) -> None:
        super().__init__(kind)
        self.kind, self.rank, self.info = kind, rank, info


class Deadlock(Exception):
    def __init__(self, report: str) -> None:
        super().__init__(report)
        self.report = report


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stable_seed(*parts: Any) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode()) & 0x7FFFFFFF


class RankSet:
    """world_size rank processes of one process group, and a channel to each."""

    def __init__(self, workdir: Path, name: str, world_size: int, backend: str, config: dict[str, Any],
                 memory_limit: int) -> None:
        self.workdir, self.name, self.world_size = workdir, name, world_size
        self.memory_limit = memory_limit
        self.port = free_port()
        self.procs: list[subprocess.Popen] = []
        self.channels: list[socket.socket] = []
        self.buffers: list[bytes] = []
        self.tails: list[str] = [""] * world_size
        self.status_files = [str(workdir / f"{name}-status-{r}") for r in range(world_size)]
        self.rank_dirs = [workdir / f"{name}-rank{r}" for r in range(world_size)]
        threads: list[threading.Thread] = []
        base_env = dict(os.environ)
        old = base_env.get("PYTHONPATH")
        root = str(Path(__file__).resolve().parents[3])
        base_env["PYTHONPATH"] = root + (os.pathsep + old if old else "")
        base_env.update(NO_MULTICAST_ENV)
        if backend == "gloo" and sys.platform.startswith("linux"):
            base_env.setdefault("GLOO_SOCKET_IFNAME", "lo")
        for r in range(world_size):
            self.rank_dirs[r].mkdir(exist_ok=True)
            (self.rank_dirs[r] / "tmp").mkdir(exist_ok=True)
            cfg = {**config, "backend": backend, "status_file": self.status_files[r],
                   "writable": [str(self.rank_dirs[r]), "/dev", *config.get("writable", [])]}
            cfg_path = workdir / f"{name}-config-{r}.json"
            cfg_path.write_text(json.dumps(cfg), encoding="utf-8")
            ours, theirs = socket.socketpair()
            env = {**base_env, "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(self.port), "RANK": str(r),
                   "WORLD_SIZE": str(world_size), "LOCAL_RANK": str(r), "LOCAL_WORLD_SIZE": str(world_size),
                   "STUDIO_RANK_FD": str(theirs.fileno()), "TMPDIR": str(self.rank_dirs[r] / "tmp"),
                   "OMP_NUM_THREADS": "1"}
            proc = subprocess.Popen([sys.executable, "-m", "studio.drills.harness.dist_rank", str(cfg_path)],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    pass_fds=(theirs.fileno(),), cwd=self.rank_dirs[r], env=env)
            theirs.close()
            self.procs.append(proc)
            self.channels.append(ours)
            self.buffers.append(b"")
            for stream, target in ((proc.stdout, sys.stdout), (proc.stderr, sys.stderr)):
                t = threading.Thread(target=self._relay, args=(r, stream, target, stream is proc.stderr),
                                     daemon=True)
                t.start()
                threads.append(t)
        self.threads = threads

    def _relay(self, rank: int, stream: Any, target: Any, keep: bool) -> None:
        """A rank's prints go to the console with a `[rank r]` margin; the end of stderr is kept."""
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", errors="replace")
            if keep:
                self.tails[rank] = (self.tails[rank] + text)[-STDERR_TAIL:]
            try:
                target.write(f"[{self.name} rank {rank}] {text}" if self.name != "solution" else f"[rank {rank}] {text}")
                target.flush()
            except (OSError, ValueError):
                return

    # ----- talking to the ranks -------------------------------------------------------
    def ready(self, deadline: float) -> list[dict[str, Any]]:
        return self._collect(list(range(self.world_size)), deadline, starting=True)

    def command(self, commands: list[dict[str, Any]], deadline: float) -> list[dict[str, Any]]:
        for r, command in enumerate(commands):
            try:
                self.channels[r].sendall((json.dumps(command) + "\n").encode("utf-8"))
            except OSError:
                pass        # a dead rank: _collect reports it
        return self._collect(list(range(self.world_size)), deadline, starting=False)

    def _collect(self, ranks: list[int], deadline: float, starting: bool) -> list[dict[str, Any]]:
        replies: list[dict[str, Any] | None] = [None] * self.world_size
        pending = set(ranks)
        failures: list[tuple[int, str, int, dict[str, Any]]] = []   # (priority, kind, rank, info)
        first_failure: float | None = None
        selector = selectors.DefaultSelector()
        for r in ranks:
            selector.register(self.channels[r], selectors.EVENT_READ, r)
        last_memory_check = 0.0
        try:
            while pending:
                now = time.monotonic()
                if first_failure is not None and now - first_failure > FAILURE_GRACE_S:
                    break
                if first_failure is None and now > deadline:
                    raise Deadlock(self.waiting_report(pending, replies, starting))
                for key, _ in selector.select(timeout=0.05):
                    r = key.data
                    try:
                        data = self.channels[r].recv(1 << 16)
                    except OSError:
                        data = b""
                    if not data:
                        selector.unregister(self.channels[r])
                        if r in pending:
                            pending.discard(r)
                            failures.append((0, "died", r, {}))
                            first_failure = first_failure or time.monotonic()
                        continue
                    self.buffers[r] += data
                    while b"\n" in self.buffers[r] and r in pending:
                        line, self.buffers[r] = self.buffers[r].split(b"\n", 1)
                        try:
                            reply = json.loads(line)
                        except ValueError:
                            reply = {"error": {"kind": "harness_error", "message": "rank sent an unreadable reply"}}
                        replies[r] = reply
                        pending.discard(r)
                        if isinstance(reply.get("error"), dict):
                            failures.append((1, "error", r, reply["error"]))
                            first_failure = first_failure or time.monotonic()
                        elif isinstance(reply.get("raised"), dict):
                            failures.append((2, "raised", r, reply["raised"]))
                            first_failure = first_failure or time.monotonic()
                for r in list(pending):
                    if self.procs[r].poll() is not None and not self.buffers[r]:
                        pending.discard(r)
                        failures.append((0, "died", r, {}))
                        first_failure = first_failure or time.monotonic()
                if self.memory_limit and now - last_memory_check > 0.5:
                    last_memory_check = now
                    for r in pending:
                        rss = sandbox.tree_rss_bytes(self.procs[r].pid)
                        if rss > self.memory_limit:
                            failures.append((0, "memory", r, {"rss": rss}))
                            first_failure = first_failure or now
        finally:
            selector.close()
        if failures:
            failures.sort(key=lambda f: (f[0], ))
            _, kind, rank, info = failures[0]
            if kind == "died":
                self.procs[rank].wait(timeout=2) if self.procs[rank].poll() is None else None
                for t in self.threads:
                    t.join(timeout=0.2)
                info = {"exit_code": self.procs[rank].poll(), "stderr": self.tails[rank]}
            raise RankFailure(kind, rank, info)
        return [reply or {} for reply in replies]

    def waiting_report(self, pending: set[int], replies: list[Any], starting: bool) -> str:
        """One line per rank: the op it waits in (and for how long), or what it did last."""
        now = time.time()
        lines = []
        for r in range(self.world_size):
            if r not in pending:
                lines.append(f"rank {r}: " + ("ready" if starting else "returned its result"))
                continue
            status = read_status(self.status_files[r])
            if starting or status is None:
                lines.append(f"rank {r}: still starting (importing torch, joining the process group)")
                continue
            state, op, n = status.get("state"), status.get("op") or "", status.get("n", 0)
            since = max(0.0, now - float(status.get("t") or now))
            if state == "in":
                lines.append(f"rank {r}: waiting in {op} for {since:.1f} s (its torch.distributed call #{n})")
            elif state == "done":
                lines.append(f"rank {r}: in its own code, {since:.1f} s after {op} returned (call #{n})")
            elif state == "running":
                lines.append(f"rank {r}: in its own code for {since:.1f} s, no torch.distributed call yet")
            else:
                lines.append(f"rank {r}: {state} {op}".rstrip())
        return "\n".join(lines)

    def close(self) -> None:
        for r, channel in enumerate(self.channels):
            try:
                channel.sendall(b'{"op": "exit"}\n')
            except OSError:
                pass
        end = time.monotonic() + 2.0
        for proc in self.procs:
            try:
                proc.wait(timeout=max(0.05, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                for child in sandbox.descendants(proc.pid):
                    try:
                        os.kill(child, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
                try:
                    proc.kill()
                except (ProcessLookupError, OSError):
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        for channel in self.channels:
            channel.close()
        for t in self.threads:
            t.join(timeout=1.0)


class DistJudge:
    def __init__(self, request: dict[str, Any], writer: EventWriter) -> None:
        self.started = time.monotonic()
        self.request = request
        self.drill = request["drill"]
        self.dist = dict(self.drill.get("distributed") or {})
        self.writer = writer
        self.user_file = os.path.realpath(request["solution"])
        seed = request.get("seed")
        self.base_seed = seed if seed is not None else random.SystemRandom().randrange(1 << 30)
        self.timeout = float(request.get("timeout_s") or 120.0)
        self.deadline = self.started + self.timeout - 1.0
        self.memory_limit = int(float(request.get("memory_limit_gib") or 8.0) * GIB)
        self.workdir = Path(tempfile.mkdtemp(prefix="studio-dist-"))
        self.sets: list[RankSet] = []
        self.calls: dict[int, dict[str, int]] = {}

    # ----- events ---------------------------------------------------------------------
    def emit(self, event: str, **payload: Any) -> None:
        self.writer.emit(event, **payload)

    def log(self, message: str, level: str = "info") -> None:
        self.emit("log", level=level, message=message)

    def fail(self, kind: str, message: str, **extra: Any) -> Stop:
        self.emit("error", kind=kind, message=message[:8000], **extra)
        return Stop()

    def close(self) -> None:
        for rank_set in self.sets:
            rank_set.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)

    # ----- flow -----------------------------------------------------------------------
    def run(self) -> None:
        import torch

        from studio.drills.harness.worker import import_file

        self.torch = torch
        low, high = (list(self.dist.get("world_sizes") or [2, 8]) + [2, 8])[:2]
        ws = self.request.get("world_size") or self.dist.get("default_world_size") or 4
        if not isinstance(ws, int) or isinstance(ws, bool) or not low <= ws <= high:
            raise self.fail("bad_request", f"this drill runs on {low} to {high} ranks, not {ws!r}")
        self.ws = ws
        gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
        use_nccl = gpus >= ws and not self.request.get("interpret") and torch.distributed.is_nccl_available()
        self.backend = "nccl" if use_nccl else "gloo"
        if use_nccl:
            self.device_name = f"{ws} ranks · NCCL on {ws} x {torch.cuda.get_device_name(0)}"
            mode = "gpu"
        else:
            self.device_name = f"{ws} ranks · gloo on CPU ({platform.machine()})"
            mode = "cpu"
        self.emit("hello", mode=mode, device=self.device_name, lang="torch", pid=os.getpid(), seed=self.base_seed,
                  world_size=ws, backend=self.backend,
                  versions={"python": platform.python_version(), "torch": torch.__version__, "triton": None,
                            "cuda": torch.version.cuda})
        if gpus and not use_nccl and not self.request.get("interpret"):
            self.log(f"{ws} ranks need {ws} GPUs for NCCL and this machine has {gpus}: running on gloo on the CPU")
        try:
            self.spec = import_file(f"_studio_dist_spec_{self.drill['id']}", self.drill["spec_module"])
        except Exception as exc:  # noqa: BLE001 - the drill's own spec is broken
            raise self.fail("bad_drill", f"the drill's spec.py failed to load: {type(exc).__name__}: {exc}")
        ranks = self._start("solution", self.user_file)
        self.log(f"{ws} ranks on {self.backend}, meeting at 127.0.0.1:{ranks.port}")
        cases = list(self.drill["cases"]) + (list(self.drill.get("gpu_cases") or []) if use_nccl else [])
        trials = int(self.request.get("trials") or self.drill.get("trials") or 1)
        self.check_all(ranks, cases, trials, "check", self.base_seed)
        self._flag_library_calls()
        if self.request.get("bench"):
            self.bench(ranks)
            self.check_all(ranks, cases, 1, "recheck", self.base_seed + 7919)
        ranks.close()

    def _start(self, name: str, solution: str | None) -> RankSet:
        home = Path.home()
        writable = [str(home / ".triton"), str(home / ".nv"), str(home / ".cache")]
        config = {"solution": solution, "spec_module": self.drill["spec_module"], "entry": self.drill["entry"],
                  "op_timeout_s": self.timeout + 60, "writable": writable,
                  "threads": 1}
        rank_set = RankSet(self.workdir, name, self.ws, self.backend, config, self.memory_limit)
        self.sets.append(rank_set)
        try:
            replies = rank_set.ready(min(self.deadline, time.monotonic() + START_TIMEOUT_S))
        except Deadlock as lock:
            raise self.fail("timeout", f"the {self.ws} ranks did not all start in time:\n{lock.report}")
        except RankFailure as failure:
            if failure.kind == "error":
                info = failure.info
                raise self.fail(str(info.get("kind") or "harness_error"), str(info.get("message")),
                                file=info.get("file"), line=info.get("line"), traceback=info.get("traceback"))
            raise self._rank_failure(failure, "while starting")
        self.log(f"{name} ranks started: pids {', '.join(str(r.get('pid')) for r in replies)}; "
                 f"{replies[0].get('sandbox')}")
        return rank_set

    def _rank_failure(self, failure: RankFailure, during: str) -> Stop:
        """A rank that died, ran out of memory or failed in the harness: end the run."""
        info = failure.info
        if failure.kind == "memory":
            return self.fail("memory_limit", f"rank {failure.rank} grew past the memory limit "
                                             f"({info.get('rss', 0) / GIB:.1f} GiB) {during}; every rank was ended")
        if failure.kind == "error":
            return self.fail(str(info.get("kind") or "harness_error"), f"rank {failure.rank}: {info.get('message')}",
                             traceback=info.get("traceback"))
        code = info.get("exit_code")
        how = f"exit code {code}"
        if isinstance(code, int) and code < 0:
            try:
                how = f"signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"signal {-code}"
        tail = str(info.get("stderr") or "").strip()
        return self.fail("crash", f"rank {failure.rank} died ({how}) {during}; every rank was ended"
                         + (f". Its last output:\n{tail[-1500:]}" if tail else ""),
                         traceback=tail or None)

    # ----- checking -------------------------------------------------------------------
    def _case_deadline(self) -> float:
        limit = float(self.dist.get("case_timeout_s") or DEFAULT_CASE_TIMEOUT_S)
        return min(self.deadline, time.monotonic() + limit)

    def _write_inputs(self, tag: str, inputs: list[tuple]) -> list[dict[str, Any]]:
        commands = []
        for r, args in enumerate(inputs):
            path = self.workdir / f"in-{tag}-{r}.bin"
            meta = write_values(str(path), list(args))
            commands.append({"inputs": str(path), "meta": meta})
        return commands

    def check_all(self, ranks: RankSet, cases: list[dict[str, Any]], trials: int, phase: str, base_seed: int) -> None:
        for index, case in enumerate(cases):
            self.emit("case_started", name=case["name"], index=index, total=len(cases), phase=phase)
            result = {"name": case["name"], "passed": True, "error": None, "shape": case["shape"],
                      "dtype": case["dtype"], "fill": case.get("fill", "randn"),
                      "layout": case.get("layout", "contiguous"), "phase": phase, "seed": base_seed,
                      "trials": 0, "ranks": []}
            capped = max(1, min(trials, case["trials"])) if isinstance(case.get("trials"), int) else trials
            for trial in range(capped):       # a large case caps its trials (drill.yaml)
                result["trials"] = trial + 1
                verdict = self.check_case(ranks, case, _stable_seed(base_seed, case["name"], trial))
                result.update(verdict)
                if not verdict["passed"]:
                    break
            stop = result.pop("stop", False)
            self.emit("case_result", **result)
            if stop:
                raise Stop()

    def check_case(self, ranks: RankSet, case: dict[str, Any], seed: int) -> dict[str, Any]:
        torch = self.torch
        gen = torch.Generator().manual_seed(seed)
        inputs = self.spec.make_inputs(case, gen, self.ws)
        expected = self.spec.reference(case, [tuple(a) for a in inputs], self.ws)
        commands = self._write_inputs("case", inputs)
        for r, command in enumerate(commands):
            command.update(op="call", out=str(ranks.rank_dirs[r] / "out.bin"))
        during = f"while running case {case['name']!r}"
        try:
            replies = ranks.command(commands, self._case_deadline())
        except Deadlock as lock:
            ranks.kill()
            raise self.fail("deadlock", f"no result from every rank within "
                            f"{float(self.dist.get('case_timeout_s') or DEFAULT_CASE_TIMEOUT_S):g} s {during}: "
                            f"a deadlock (say, a send with no matching recv) or a very slow solution. "
                            f"Every rank was ended. Where each rank was:\n{lock.report}{self._nccl_hint(lock.report)}")
        except RankFailure as failure:
            ranks.kill()
            if failure.kind != "raised":
                raise self._rank_failure(failure, during)
            info = failure.info
            where = f" ({Path(info['file']).name}, line {info['line']})" if info.get("file") and info.get("line") else ""
            self.log(f"rank {failure.rank} raised {during}; every rank was ended. Its traceback:\n"
                     f"{info.get('traceback')}", level="error")
            ranks_info = [{"rank": r, "passed": False,
                           "error": (f"raised {info.get('message')}{where}" if r == failure.rank
                                     else "ended when rank %d raised" % failure.rank)} for r in range(self.ws)]
            return {"passed": False, "stop": True, "ranks": ranks_info,
                    "error": f"rank {failure.rank} raised {info.get('message')}{where}; every rank was ended"}
        for r, reply in enumerate(replies):
            for name, count in (reply.get("calls") or {}).items():
                self.calls.setdefault(r, {})
                self.calls[r][name] = self.calls[r].get(name, 0) + int(count)
        verdict = self.compare(case, ranks, replies, expected)
        self._check_call_counts(verdict, replies)
        for entry, reply in zip(verdict["ranks"], replies):
            if isinstance(reply.get("seconds"), (int, float)) and isinstance(reply.get("comm_s"), (int, float)):
                entry["seconds"], entry["comm_s"] = float(reply["seconds"]), float(reply["comm_s"])
        bubble = self._bubble(case, verdict["ranks"])
        if bubble:
            verdict["note"] = bubble
            self.log(f"{case['name']}: {bubble}")
        return verdict

    def _check_call_counts(self, verdict: dict[str, Any], replies: list[dict[str, Any]]) -> None:
        """A drill whose `distributed.calls` says how many times one call of the solution must
        call a torch.distributed function (tp_mlp: all_reduce twice, one per pass): a rank
        whose count differs fails the case, with the counts it made."""
        wanted = self.dist.get("calls") or {}
        if not wanted:
            return
        changed = False
        for entry, reply in zip(verdict["ranks"], replies):
            made = reply.get("calls") or {}
            wrong = [f"{name} {int(made.get(name, 0))} time{'s' if int(made.get(name, 0)) != 1 else ''} "
                     f"(expected {count})" for name, count in sorted(wanted.items())
                     if int(made.get(name, 0)) != count]
            if wrong and entry.get("passed"):
                note = self.dist.get("calls_note")
                entry.update(passed=False, error="called torch.distributed." + ", ".join(wrong) + " in one call"
                             + (f": {note}" if note else ""))
                changed = True
        bad = [e for e in verdict["ranks"] if not e["passed"]]
        if changed:
            good = [str(e["rank"]) for e in verdict["ranks"] if e["passed"]]
            verdict["passed"] = False
            verdict["error"] = ("; ".join(f"rank {e['rank']}: {e['error']}" for e in bad[:4])
                                + (f"; {len(bad) - 4} more ranks wrong" if len(bad) > 4 else "")
                                + (f" (rank{'s' if len(good) > 1 else ''} {', '.join(good)} correct)" if good else ""))

    def _bubble(self, case: dict[str, Any], per_rank: list[dict[str, Any]]) -> str | None:
        """A drill whose spec has `ideal_idle(case, world_size) -> (fraction, formula)` (a
        pipeline schedule's bubble): the measured idle fraction of every rank's call (the time
        it spent inside torch.distributed calls and waits, over the call's time) beside it."""
        fn = getattr(self.spec, "ideal_idle", None)
        if fn is None or not per_rank or not all(e.get("seconds") for e in per_rank):
            return None
        fractions = [min(1.0, e["comm_s"] / e["seconds"]) for e in per_rank]
        for entry, fraction in zip(per_rank, fractions):
            entry["idle_fraction"] = fraction
        ideal, formula = fn(case, self.ws)
        return (f"bubble: measured idle {sum(fractions) / len(fractions):.2f} of the step (time blocked in "
                f"torch.distributed, messages included; mean over ranks; per rank "
                f"{', '.join(f'{f:.2f}' for f in fractions)}) vs {formula} = {ideal:.2f}")

    def compare(self, case: dict[str, Any], ranks: RankSet, replies: list[dict[str, Any]],
                expected: list[Any]) -> dict[str, Any]:
        torch = self.torch
        names = list(self.dist.get("outputs") or ["out"])
        tol = self.drill["tolerances"][case["dtype"]]
        per_rank = []
        worst = 0.0
        worst_rel = 0.0
        for r, reply in enumerate(replies):
            want = expected[r] if isinstance(expected[r], (tuple, list)) else (expected[r],)
            try:
                got = read_values(str(ranks.rank_dirs[r] / "out.bin"), reply.get("outputs") or [])
            except (OSError, ValueError, KeyError, TypeError) as exc:
                per_rank.append({"rank": r, "passed": False, "error": f"its output could not be read: {exc}"})
                continue
            if len(got) != len(want):
                per_rank.append({"rank": r, "passed": False,
                                 "error": f"returned {len(got)} value(s), expected {len(want)} "
                                          f"({', '.join(names[:len(want)])})"})
                continue
            entry: dict[str, Any] = {"rank": r, "passed": True, "error": None, "max_abs_err": 0.0}
            dtypes = self._output_dtypes(case, len(want))
            for j, (g, w) in enumerate(zip(got, want)):
                label = names[j] if j < len(names) else f"output {j}"
                problem, abs_err, rel_err = self._compare_one(g, w, dtypes[j], tol, label)
                entry["max_abs_err"] = max(entry["max_abs_err"], abs_err or 0.0)
                worst, worst_rel = max(worst, abs_err or 0.0), max(worst_rel, rel_err or 0.0)
                if problem:
                    entry.update(passed=False, error=problem)
                    break
            per_rank.append(entry)
        bad = [e for e in per_rank if not e["passed"]]
        message = None
        if bad:
            shown = "; ".join(f"rank {e['rank']}: {e['error']}" for e in bad[:4])
            more = f"; {len(bad) - 4} more ranks wrong" if len(bad) > 4 else ""
            good = [str(e["rank"]) for e in per_rank if e["passed"]]
            message = shown + more + (f" (rank{'s' if len(good) > 1 else ''} {', '.join(good)} correct)" if good else "")
        return {"passed": not bad, "error": message, "ranks": per_rank, "max_abs_err": worst,
                "max_rel_err": worst_rel}

    def _output_dtypes(self, case: dict[str, Any], n: int) -> list[Any]:
        torch = self.torch
        fn = getattr(self.spec, "output_dtypes", None)
        if fn is not None:
            return list(fn(case))
        return [getattr(torch, case["dtype"])] * n

    def _compare_one(self, got: Any, want: Any, dtype: Any, tol: dict[str, float],
                     label: str) -> tuple[str | None, float | None, float | None]:
        torch = self.torch
        if isinstance(got, _Unreadable) or not isinstance(got, torch.Tensor):
            kind = got.type_name if isinstance(got, _Unreadable) else type(got).__name__
            return f"`{label}` is a {kind}, not a tensor", None, None
        if list(got.shape) != list(want.shape):
            return f"`{label}` has shape {list(got.shape)}, expected {list(want.shape)}", None, None
        if got.dtype != dtype:
            return (f"`{label}` is {str(got.dtype).removeprefix('torch.')}, expected "
                    f"{str(dtype).removeprefix('torch.')}"), None, None
        if got.numel() == 0:
            return None, 0.0, 0.0
        g = got.to(torch.float64)
        w = want.to(torch.float64)
        finite = torch.isfinite(w)
        wrong_pattern = torch.isfinite(g) != finite
        if bool(wrong_pattern.any()):
            idx = tuple(int(i) for i in wrong_pattern.nonzero()[0])
            return (f"`{label}`[{', '.join(map(str, idx))}] is {g[idx].item():.6g}, expected "
                    f"{w[idx].item():.6g}"), float("inf"), float("inf")
        err = (g - w).abs().where(finite, torch.zeros((), dtype=torch.float64))
        limit = tol["atol"] + tol["rtol"] * w.abs()
        bad = (err > limit) & finite
        abs_err = float(err.max())
        rel_err = float((err / w.abs().clamp_min(1e-12)).where(finite, torch.zeros((), dtype=torch.float64)).max())
        if bool(bad.any()):
            idx = tuple(int(i) for i in bad.nonzero()[0])
            count = int(bad.sum())
            return (f"`{label}` wrong at {count} of {bad.numel()} elements, first at "
                    f"[{', '.join(map(str, idx))}]: got {g[idx].item():.6g}, expected {w[idx].item():.6g}; "
                    f"max abs error {abs_err:.3g}"), abs_err, rel_err
        return None, abs_err, rel_err

    def _flag_library_calls(self) -> None:
        banned = set(self.drill.get("reference_ops", {}).get("torch") or [])
        seen = []
        for r in sorted(self.calls):
            used = [f"{name} x{count}" for name, count in sorted(self.calls[r].items()) if name in banned]
            if used:
                seen.append(f"rank {r} called torch.distributed.{', '.join(used)}")
        if seen:
            self.emit("flag", name="calls_reference", blocking=True,
                      detail="; ".join(seen) + ": this drill asks you to build it from "
                             + (self.dist.get("allowed") or "point-to-point send/recv"))

    # ----- timing ---------------------------------------------------------------------
    def _nccl_hint(self, report: str) -> str:
        """What a hang 'in its own code' after a point-to-point call means on NCCL."""
        if self.backend != "nccl" or "in its own code" not in report:
            return ""
        return ("\nOn NCCL a send or recv call returns once the transfer is queued on the GPU, not when it "
                "is done: a rank 'in its own code' long after one returned is usually stuck on the GPU, "
                "behind a send whose peer posted its own send before the matching recv (with two ranks "
                "the left and right neighbour are the same rank). Post each step's send and recv "
                "together with dist.batch_isend_irecv.")

    def bench(self, ranks: RankSet) -> None:
        torch = self.torch
        collective = self.dist.get("collective")
        factor = bus_factor(collective, self.ws)
        if factor is None:
            self.emit("bench_info", available=False, copy_gbps=None,
                      note="this drill has no bandwidth sweep: it is checked, not timed")
            return
        on = "gloo on CPU" if self.backend == "gloo" else "NCCL"
        note = (f"bandwidths are {on} figures between {self.ws} processes"
                + (" on this machine's loopback: gloo-on-CPU, not a GPU interconnect" if self.backend == "gloo" else "")
                + f"; busbw = algbw x {bus_factor_text(collective)} (nccl-tests)")
        self.emit("bench_info", available=True, note=note, copy_gbps=None)
        library = self._start("library", None)
        label = f"{self.dist.get('library') or 'dist.' + collective} ({self.backend})"
        # NCCL between GPUs is timed over nccl-tests' kind of sweep (1 MB .. 1 GB) where the
        # drill gives one (bench.gpu_shapes); gloo on CPU over the small default sweep.
        bench = self.drill.get("bench", {})
        shapes = (bench.get("gpu_shapes") if self.backend == "nccl" else None) or bench.get("shapes") or []
        dtypes = self.drill.get("bench", {}).get("dtypes") or ["float32"]
        for shape in shapes:
            for dtype in dtypes:
                case = {"name": f"bench-{'x'.join(map(str, shape))}-{dtype}", "shape": list(shape), "dtype": dtype,
                        "fill": "randn", "layout": "contiguous"}
                point = self._bench_point(ranks, library, case, factor, label)
                self.emit("bench_point", **point)
        library.close()

    def _bench_point(self, ranks: RankSet, library: RankSet, case: dict[str, Any], factor: float,
                     label: str) -> dict[str, Any]:
        torch = self.torch
        size_bytes = int(self.spec.bytes_moved(case, self.ws))
        point: dict[str, Any] = {"size": case["shape"], "dtype": case["dtype"], "bytes": size_bytes,
                                 "protocol": "dist", "baseline": label, "label": f"{size_bytes} B"}
        gen = torch.Generator().manual_seed(_stable_seed(self.base_seed, case["name"]))
        inputs = self.spec.make_inputs(case, gen, self.ws)
        expected = self.spec.reference(case, [tuple(a) for a in inputs], self.ws)
        commands = self._write_inputs(case["name"], inputs)

        def timed(rank_set: RankSet, iters: int) -> list[float]:
            cmds = [{**c, "op": "bench", "iters": iters, "warmup": 1,
                     "out": str(rank_set.rank_dirs[r] / "out.bin")} for r, c in enumerate(commands)]
            replies = rank_set.command(cmds, self.deadline)
            per_rank = [list(map(float, reply.get("times_s") or [])) for reply in replies]
            if rank_set is ranks:
                verdict = self.compare(case, ranks, replies, expected)
                if not verdict["passed"]:
                    raise ValueError(f"the timed output is wrong: {verdict['error']}")
            # nccl-tests' default (-a 1): the time of an op is the mean over the ranks.
            return [statistics.fmean(col) for col in zip(*per_rank)]

        try:
            probe = timed(ranks, 2)
            iters = int(min(max(BENCH_ROUND_S / max(statistics.median(probe), 1e-6), 3), 50))
            mine, lib = [], []
            for _ in range(2):
                mine += timed(ranks, iters)
                lib += timed(library, iters)
        except (Deadlock, RankFailure) as exc:
            ranks.kill()
            library.kill()
            if isinstance(exc, Deadlock):
                raise self.fail("deadlock", f"no result from every rank within the run's time limit while timing "
                                            f"{case['name']}. Where each rank was:\n{exc.report}{self._nccl_hint(exc.report)}")
            raise self._rank_failure(exc, f"while timing {case['name']}")
        except ValueError as exc:
            return {**point, "passed": False, "error": str(exc)}
        q = statistics.quantiles(mine, n=5) if len(mine) >= 2 else [mine[0]] * 4
        ql = statistics.quantiles(lib, n=5) if len(lib) >= 2 else [lib[0]] * 4
        t, t_lib = statistics.median(mine), statistics.median(lib)
        algbw, ref_algbw = size_bytes / t / 1e9, size_bytes / t_lib / 1e9
        return {**point, "passed": True, "ms": t * 1e3, "p20": q[0] * 1e3, "p80": q[3] * 1e3,
                "ref_ms": t_lib * 1e3, "ref_p20": ql[0] * 1e3, "ref_p80": ql[3] * 1e3,
                "gbps": algbw * factor, "ref_gbps": ref_algbw * factor, "algbw": algbw, "ref_algbw": ref_algbw,
                "speedup": t_lib / t,
                "baselines": {label: {"ms": t_lib * 1e3, "p20": ql[0] * 1e3, "p80": ql[3] * 1e3,
                                      "gbps": ref_algbw * factor}},
                "note": f"busbw = algbw x {factor:.3g}; algbw {algbw:.3g} GB/s (yours), {ref_algbw:.3g} GB/s (library)"}
