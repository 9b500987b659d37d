"""One rank of a parallelism drill: `python -m studio.drills.harness.dist_rank CONFIG`.

Started by the distributed judge (dist.py) with torchrun's environment (MASTER_ADDR,
MASTER_PORT, RANK, WORLD_SIZE, LOCAL_RANK). It joins the process group (gloo on CPU, NCCL
on GPUs), wraps every torch.distributed call so that the op it is in is written to a
status file before it starts and after it ends (how a deadlock report names what each rank
waits on) and so that calls of the drill's library collectives are seen (honesty), then
imports the solution (or, for the timed baseline, only the drill's spec) and serves the
judge's commands: JSON lines on a socket of its own; tensors as raw bytes in files.

It holds no reference and makes no comparison: the judge gets this rank's outputs as bytes
and decides.
"""

from __future__ import annotations

import faulthandler
import functools
import inspect
import json
import os
import socket
import sys
import time
import traceback
from datetime import timedelta
from typing import Any

from studio.drills.harness.dist_common import StatusFile, read_values, write_values

# torch.distributed functions that move data or wait: traced (and, when the drill names
# them in reference_ops, flagged).
TRACED = ("send", "recv", "isend", "irecv", "batch_isend_irecv", "barrier", "broadcast",
          "all_reduce", "reduce", "all_gather", "all_gather_into_tensor", "reduce_scatter",
          "reduce_scatter_tensor", "all_to_all", "all_to_all_single", "gather", "scatter",
          "all_gather_object", "broadcast_object_list", "send_object_list", "recv_object_list",
          "all_reduce_coalesced", "monitored_barrier",
          # newer names of the same collectives (torch 2.13: reduce_scatter_single is what
          # reduce_scatter_tensor calls) and the private ones they rest on
          "reduce_scatter_single", "all_gather_single", "all_gather_coalesced",
          "reduce_scatter_tensor_coalesced", "gather_object", "scatter_object_list",
          "_all_gather_base", "_reduce_scatter_base")


class Tracer:
    """Wraps torch.distributed's functions; records the outermost op in the status file."""

    def __init__(self, status: StatusFile, rank: int) -> None:
        self.status = status
        self.rank = rank
        self.depth = 0
        self.count = 0
        self.called: dict[str, int] = {}
        self.recording = True
        self.waited = 0.0          # seconds inside outermost torch.distributed calls (and waits)
        self._entered = 0.0
        self.status.write({"state": "idle", "n": 0, "t": time.time()})

    def enter(self, text: str, name: str) -> bool:
        if self.depth:
            self.depth += 1
            return False
        self.depth = 1
        if self.recording:
            self.called[name] = self.called.get(name, 0) + 1
        self.count += 1
        self.status.write({"state": "in", "op": text, "n": self.count, "t": time.time()})
        self._entered = time.perf_counter()
        return True

    def leave(self, outer: bool, text: str) -> None:
        self.depth -= 1
        if outer:
            self.waited += time.perf_counter() - self._entered
            self.status.write({"state": "done", "op": text, "n": self.count, "t": time.time()})

    def note(self, state: str, text: str = "") -> None:
        self.status.write({"state": state, "op": text, "n": self.count, "t": time.time()})

    def install(self) -> None:
        import torch.distributed as dist
        import torch.distributed.distributed_c10d as c10d

        for name in TRACED:
            original = getattr(c10d, name, None) or getattr(dist, name, None)
            if original is None or not callable(original):
                continue
            wrapped = self._wrap(name, original)
            for module in (dist, c10d):
                if hasattr(module, name):
                    setattr(module, name, wrapped)

    def _wrap(self, name: str, original: Any) -> Any:
        try:
            signature = inspect.signature(original)
        except (TypeError, ValueError):
            signature = None
        tracer = self

        @functools.wraps(original)
        def traced(*args: Any, **kwargs: Any) -> Any:
            text = describe(name, signature, args, kwargs)
            outer = tracer.enter(text, name)
            try:
                result = original(*args, **kwargs)
            finally:
                tracer.leave(outer, text)
            if outer and result is not None:
                if isinstance(result, list) and all(hasattr(w, "wait") for w in result):
                    return [TracedWork(w, f"{text} #{i}", tracer) for i, w in enumerate(result)]
                if hasattr(result, "wait") and hasattr(result, "is_completed"):
                    return TracedWork(result, text, tracer)
            return result

        traced.__wrapped_by_studio__ = original  # type: ignore[attr-defined]
        return traced


class TracedWork:
    """A Work handle whose wait() is recorded as the op being waited on."""

    def __init__(self, work: Any, text: str, tracer: Tracer) -> None:
        self._work, self._text, self._tracer = work, text, tracer

    def wait(self, *args: Any, **kwargs: Any) -> Any:
        outer = self._tracer.enter(f"wait for {self._text}", "wait")
        try:
            return self._work.wait(*args, **kwargs)
        finally:
            self._tracer.leave(outer, f"wait for {self._text}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._work, name)


def _brief(value: Any) -> str | None:
    import torch

    if isinstance(value, torch.Tensor):
        return f"{str(value.dtype).removeprefix('torch.')}{list(value.shape)}"
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, torch.Tensor) for v in value):
        return f"[{len(value)} x {_brief(value[0])}]"
    if isinstance(value, (list, tuple)) and value and all(hasattr(v, "op") and hasattr(v, "peer") for v in value):
        parts = []
        for op in value:
            kind = getattr(op.op, "__name__", str(op.op))
            arrow = "->" if "send" in kind else "<-"
            parts.append(f"{kind}{arrow}{op.peer} {_brief(op.tensor)}")
        return "[" + ", ".join(parts) + "]"
    return None


def describe(name: str, signature: Any, args: tuple, kwargs: dict) -> str:
    """`recv(float32[256], src=3)`: the op, its tensors and its peers."""
    parts: list[str] = []
    try:
        bound = signature.bind_partial(*args, **kwargs).arguments if signature is not None else {}
    except TypeError:
        bound = {}
    if not bound:
        bound = {f"arg{i}": a for i, a in enumerate(args)} | kwargs
    for key, value in bound.items():
        if key in ("src", "dst", "group_src", "group_dst", "tag", "peer") and isinstance(value, int):
            parts.append(f"{key}={value}")
        elif key == "op" and value is not None:
            parts.append(f"op={getattr(value, 'name', value)}")
        else:
            text = _brief(value)
            if text:
                parts.append(text)
    return f"{name}({', '.join(parts)})"


class Rank:
    def __init__(self, config: dict[str, Any], channel: socket.socket) -> None:
        self.config = config
        self.channel = channel
        self.reader = channel.makefile("rb")
        self.rank = int(os.environ["RANK"])
        self.world_size = int(os.environ["WORLD_SIZE"])
        self.local_rank = int(os.environ.get("LOCAL_RANK", self.rank))
        self.fn: Any = None

    def send(self, message: dict[str, Any]) -> None:
        self.channel.sendall((json.dumps(message, default=str) + "\n").encode("utf-8"))

    def start(self) -> None:
        import torch
        import torch.distributed as dist

        self.torch, self.dist = torch, dist
        backend = self.config["backend"]
        if backend == "nccl":
            torch.cuda.set_device(self.local_rank)
            self.device = torch.device("cuda", self.local_rank)
        else:
            torch.set_num_threads(int(self.config.get("threads") or 1))
            self.device = torch.device("cpu")
        kwargs: dict[str, Any] = {"backend": backend, "rank": self.rank, "world_size": self.world_size,
                                  "timeout": timedelta(seconds=float(self.config.get("op_timeout_s") or 600))}
        if backend == "nccl":
            kwargs["device_id"] = self.device
        dist.init_process_group(**kwargs)
        self.barrier = dist.barrier          # the harness's own barrier: not traced
        self.tracer = Tracer(StatusFile(self.config["status_file"]), self.rank)
        self.tracer.install()

    def load(self) -> dict[str, Any]:
        """Import the spec (baseline) or the solution; a reply for the judge."""
        from studio.drills.harness import sandbox
        from studio.drills.harness.worker import import_file

        guard = sandbox.restrict_worker(self.config.get("writable") or [])
        solution = self.config.get("solution")
        if not solution:
            spec = import_file(f"_studio_dist_spec_{self.rank}", self.config["spec_module"])
            self.fn = getattr(spec, "baseline")
            return {"ready": True, "sandbox": guard}
        path = os.path.realpath(solution)
        try:
            module = import_file("solution", path)
        except SyntaxError as exc:
            return {"error": {"kind": "syntax_error", "message": f"{type(exc).__name__}: {exc.msg}",
                              "file": path, "line": exc.lineno, "traceback": traceback.format_exc()}}
        except BaseException as exc:  # noqa: BLE001 - the solution's import, reported
            file, line = user_frame(exc.__traceback__, path)
            return {"error": {"kind": "import_error", "message": f"{type(exc).__name__}: {exc}",
                              "file": file or path, "line": line, "traceback": traceback.format_exc()}}
        fn = getattr(module, self.config["entry"], None)
        if not callable(fn):
            return {"error": {"kind": "missing_entry", "file": path,
                              "message": f"the solution defines no function {self.config['entry']!r}"}}
        self.fn = fn
        return {"ready": True, "sandbox": guard}

    def serve(self) -> None:
        for line in self.reader:
            command = json.loads(line)
            op = command.get("op")
            if op == "exit":
                return
            if op == "call":
                self.send(self.call(command))
            elif op == "bench":
                self.send(self.bench(command))
            else:
                self.send({"error": {"kind": "harness_error", "message": f"unknown op {op!r}"}})

    def _inputs(self, command: dict[str, Any]) -> list[Any]:
        return read_values(command["inputs"], command["meta"], self.device)

    def _sync(self) -> None:
        if self.device.type == "cuda":
            self.torch.cuda.synchronize()

    def call(self, command: dict[str, Any]) -> dict[str, Any]:
        args = self._inputs(command)
        self.tracer.called = {}
        self.tracer.waited = 0.0
        self.tracer.note("running", f"{self.config['entry']}(...)")
        started = time.perf_counter()
        try:
            out = self.fn(*args)
            self._sync()
        except BaseException as exc:  # noqa: BLE001 - the user's code raised: reported with its traceback
            self.tracer.note("raised", f"{type(exc).__name__}")
            file, line = user_frame(exc.__traceback__, os.path.realpath(self.config.get("solution") or ""))
            return {"raised": {"message": f"{type(exc).__name__}: {exc}", "file": file, "line": line,
                               "traceback": traceback.format_exc()}, "calls": dict(self.tracer.called)}
        seconds = time.perf_counter() - started
        self.tracer.note("returned", f"{self.config['entry']}(...)")
        outputs = list(out) if isinstance(out, (tuple, list)) else [out]
        meta = write_values(command["out"], outputs)
        return {"outputs": meta, "calls": dict(self.tracer.called), "seconds": seconds,
                "comm_s": self.tracer.waited, "tuple": isinstance(out, (tuple, list))}

    def bench(self, command: dict[str, Any]) -> dict[str, Any]:
        """Time `iters` calls, each on a fresh copy of the inputs, each started after a barrier
        (copies and barriers outside the timed region); per-call seconds of this rank."""
        torch = self.torch
        pristine = self._inputs(command)
        work = [v.clone() if isinstance(v, torch.Tensor) else v for v in pristine]
        times: list[float] = []
        self.tracer.recording = False
        out: Any = None
        try:
            for i in range(int(command.get("warmup", 1)) + int(command["iters"])):
                for dst, src in zip(work, pristine):
                    if isinstance(dst, torch.Tensor):
                        dst.copy_(src)
                self._sync()
                self.barrier()
                started = time.perf_counter()
                out = self.fn(*work)
                self._sync()
                elapsed = time.perf_counter() - started
                if i >= int(command.get("warmup", 1)):
                    times.append(elapsed)
        except BaseException as exc:  # noqa: BLE001
            return {"raised": {"message": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}}
        finally:
            self.tracer.recording = True
        outputs = list(out) if isinstance(out, (tuple, list)) else [out]
        return {"times_s": times, "outputs": write_values(command["out"], outputs)}

    def close(self) -> None:
        try:
            self.dist.destroy_process_group()
        except Exception:  # noqa: BLE001
            pass


def user_frame(tb: Any, user_file: str) -> tuple[str | None, int | None]:
    found: tuple[str | None, int | None] = (None, None)
    while tb is not None:
        if user_file and os.path.realpath(tb.tb_frame.f_code.co_filename) == user_file:
            found = (user_file, tb.tb_lineno)
        tb = tb.tb_next
    return found


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    config = json.loads(open(argv[0], encoding="utf-8").read())
    faulthandler.enable(file=sys.stderr)
    channel = socket.socket(fileno=int(os.environ["STUDIO_RANK_FD"]))
    rank = Rank(config, channel)
    try:
        rank.start()
        reply = rank.load()
    except BaseException as exc:  # noqa: BLE001 - start-up failed: say so, then exit
        rank.send({"error": {"kind": "harness_error", "message": f"rank {os.environ.get('RANK')} could not "
                             f"start: {type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}})
        return 3
    rank.send({**reply, "pid": os.getpid(), "device": str(getattr(rank, "device", ""))})
    if "error" in reply:
        return 3
    try:
        rank.serve()
    finally:
        rank.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
