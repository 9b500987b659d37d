"""This machine: the judge runs as a child process of the app.

`python -m studio.drills.harness` with the configured interpreter (default: this one; a
setting can point at another environment, e.g. a conda env with CUDA torch), in its own
process group. It reports typed events as JSON lines over a socket of its own (a
socketpair passed with pass_fds: unlike a pipe, a socket cannot be re-opened through /proc
by the user's process); the solution's stdout and stderr come back on two pipes.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from studio.drills.targets import TargetError

_REPO_ROOT = Path(__file__).resolve().parents[3]


class LocalChild:
    """The judge's Popen, with the event socket's read end and group-wide kill."""

    def __init__(self, proc: subprocess.Popen, event_fd: int) -> None:
        self.proc = proc
        self.event_fd = event_fd
        self.stdout = proc.stdout
        self.stderr = proc.stderr

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def poll(self) -> int | None:
        return self.proc.poll()

    def wait(self) -> int:
        return self.proc.wait()

    def terminate(self) -> None:
        """Ask the judge to end its worker tree and exit (the runner SIGKILLs the group later)."""
        try:
            self.proc.send_signal(signal.SIGTERM)
        except (ProcessLookupError, OSError):
            pass

    def kill_group(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class LocalTarget:
    label = "this machine"

    def __init__(self, python: str | None = None, env: dict[str, str] | None = None) -> None:
        self.python = python or sys.executable
        self.env = env

    def child_env(self, interpret: bool) -> dict[str, str]:
        env = dict(os.environ if self.env is None else self.env)
        old = env.get("PYTHONPATH")
        env["PYTHONPATH"] = str(_REPO_ROOT) + (os.pathsep + old if old else "")
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("TRITON_INTERPRET", None)
        if interpret:
            env["TRITON_INTERPRET"] = "1"
        return env

    def language_facts(self) -> dict:
        from studio.drills.languages import probe_facts

        return probe_facts(self.python)

    def start(self, payload: dict, workdir: Path) -> LocalChild:
        request_path = Path(workdir) / "request.json"
        request_path.write_text(json.dumps(payload), encoding="utf-8")
        ours, theirs = socket.socketpair()
        read_fd, write_fd = ours.detach(), theirs.detach()
        command = [self.python, "-m", "studio.drills.harness", "--events-fd", str(write_fd),
                   "--request", str(request_path)]
        try:
            proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, pass_fds=(write_fd,), cwd=workdir,
                                    env=self.child_env(bool(payload.get("interpret"))),
                                    start_new_session=True)
        except OSError as exc:
            os.close(read_fd)
            os.close(write_fd)
            raise TargetError(f"cannot start {self.python}: {exc}", kind="harness_error",
                              step="start the judge") from exc
        os.close(write_fd)
        return LocalChild(proc, read_fd)
