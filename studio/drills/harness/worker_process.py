"""The judge's handle on its worker: start it, ask it things, contain it, end it.

This is the "local" target of the drill side (DESIGN.md: problems x languages x targets):
the worker runs as a child of the judge on this machine. Every request has the run's
deadline and the memory limit behind it: while waiting for a reply the judge polls the
worker tree's resident memory and the clock, and kills the tree when either is exceeded.
A worker that dies, or answers with anything but a well-formed reply, ends the run as a
crash with a plain message; it never produces a result.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from studio.drills.crash import crash_info, line_in_log
from studio.drills.harness import sandbox
from studio.drills.harness.channel import FrameReader, ProtocolError, send_command
from studio.drills.harness.worker import DUMP_SIGNAL
from studio.drills.result import ErrorInfo

POLL_S = 0.05
DUMP_WAIT_S = 0.5   # for a hung worker's stacks before it is killed
GIB = 1 << 30


class WorkerGone(Exception):
    """The worker can no longer answer; `info` says why (timeout, memory, crash)."""

    def __init__(self, info: ErrorInfo) -> None:
        super().__init__(info.message)
        self.info = info


class WorkerProcess:
    def __init__(self, workdir: Path, solution: str, deadline: float, memory_limit: int,
                 env: dict[str, str] | None = None) -> None:
        self.workdir = workdir
        self.solution = solution
        self.deadline = deadline            # time.monotonic() by which the run must end
        self.timeout_s = 0.0
        self.memory_limit = memory_limit
        self.fault_log = workdir / "worker_faulthandler.log"
        self.reader = FrameReader()
        self.pending: list[dict[str, Any]] = []
        cmd_read, self.cmd_write = os.pipe()
        self.reply_read, reply_write = os.pipe()
        command = [sys.executable, "-m", "studio.drills.harness.worker", "--cmd-fd", str(cmd_read),
                   "--reply-fd", str(reply_write), "--fault-log", str(self.fault_log)]
        scratch = workdir / "tmp"
        scratch.mkdir(exist_ok=True)
        child_env = dict(os.environ if env is None else env)
        child_env["TMPDIR"] = str(scratch)
        # torch.compile in a solution compiles in its own process, not in a pool of threads
        # that the background-threads check would count as the solution's.
        child_env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, pass_fds=(cmd_read, reply_write),
                                     cwd=workdir, env=child_env, start_new_session=True)
        os.close(cmd_read)
        os.close(reply_write)
        os.set_blocking(self.reply_read, False)
        self.exit_code: int | None = None

    # ----- requests ---------------------------------------------------------------------
    def request(self, command: dict[str, Any], during: str = "") -> dict[str, Any]:
        try:
            send_command(self.cmd_write, command)
        except (BrokenPipeError, OSError):
            pass   # it died; reading says how
        return self.receive(during)

    def receive(self, during: str = "") -> dict[str, Any]:
        """The next reply, or WorkerGone (timeout, memory limit, crash, garbage)."""
        selector = selectors.DefaultSelector()
        selector.register(self.reply_read, selectors.EVENT_READ)
        next_memory_check = 0.0
        try:
            while not self.pending:
                now = time.monotonic()
                if now >= self.deadline:
                    line = self._hung_line()
                    self.kill()
                    where = f" ({os.path.basename(self.solution)}, line {line})" if line else ""
                    raise WorkerGone(ErrorInfo(
                        "timeout", f"no result within the {self.timeout_s:g} s time limit{during}: "
                                   f"the solution hangs or is far too slow; the process was killed{where}",
                        file=self.solution if line else None, line=line))
                if now >= next_memory_check:
                    next_memory_check = now + 0.2
                    rss = sandbox.tree_rss_bytes(self.proc.pid)
                    if rss > self.memory_limit:
                        self.kill()
                        raise WorkerGone(ErrorInfo(
                            "memory_limit", f"the solution used more than "
                                            f"{self.memory_limit / GIB:.1f} GiB of memory{during} "
                                            f"({rss / GIB:.1f} GiB); the process was killed"))
                if selector.select(timeout=min(POLL_S, max(self.deadline - now, 0))):
                    try:
                        data = os.read(self.reply_read, 1 << 20)
                    except BlockingIOError:
                        continue
                    if not data:
                        raise WorkerGone(self._death(during))
                    try:
                        self.pending.extend(self.reader.feed(data))
                    except ProtocolError as exc:
                        self.kill()
                        raise WorkerGone(ErrorInfo("crash", f"{exc}{during}")) from None
                elif self.proc.poll() is not None:
                    raise WorkerGone(self._death(during))
        finally:
            selector.close()
        return self.pending.pop(0)

    def _hung_line(self) -> int | None:
        """The line of the user's file the worker is stuck on: its stacks, dumped on request
        (faulthandler, so even a loop that never returns to the interpreter's eval loop
        answers), read back from its fault log."""
        try:
            size = self.fault_log.stat().st_size if self.fault_log.is_file() else 0
            os.kill(self.proc.pid, DUMP_SIGNAL)
        except (ProcessLookupError, PermissionError, OSError):
            return None
        end = time.monotonic() + DUMP_WAIT_S
        text = ""
        while time.monotonic() < end:
            time.sleep(0.02)
            try:
                text = self.fault_log.read_bytes()[size:].decode("utf-8", "replace")
            except OSError:
                return None
            if text and line_in_log(text, self.solution) is not None:
                break
        return line_in_log(text, self.solution)

    def _death(self, during: str) -> ErrorInfo:
        try:
            self.exit_code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            self.exit_code = self.proc.returncode
        return crash_info(self.exit_code, during, self.fault_log, self.solution)

    # ----- control ------------------------------------------------------------------------
    def pause(self) -> None:
        """Freeze every thread of the worker (while the judge times something of its own)."""
        self._signal_group(signal.SIGSTOP)

    def resume(self) -> None:
        self._signal_group(signal.SIGCONT)

    def _signal_group(self, sig: int) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> None:
        self._signal_group(signal.SIGKILL)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def discard(self) -> None:
        """Kill this worker's process group and drop its pipes (a fresh worker follows)."""
        self.kill()
        self._close_pipes()

    def _close_pipes(self) -> None:
        for fd in (self.cmd_write, self.reply_read):
            try:
                os.close(fd)
            except OSError:
                pass
        self.cmd_write = self.reply_read = -1

    def close(self) -> None:
        """End the worker and everything it started; safe to call more than once."""
        if self.proc.poll() is None:
            try:
                send_command(self.cmd_write, {"op": "exit"})
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        self._close_pipes()
        sandbox.kill_descendants()
