"""The remote end of the SSH target: `python -m studio.drills.targets.agent --root DIR`.

It runs on the remote host from the copied studio.drills package, as the direct child of
sshd (the ssh command execs it), so its stdin and stdout are the SSH channel. Stdlib only.

Channel protocol (both ways over the one channel; see targets/ssh.py for the other end):

- stdin, local -> remote: first an 8-byte big-endian length and that many bytes of an
  uncompressed tar holding the run's files (request.json, the solution and the problem's
  files under files/<local absolute path>); then control bytes: b"T" asks the judge to stop
  (SIGTERM, as the local runner does), b"K" kills its process group and its whole tree.
  End of stdin means the connection dropped or the app went away: the agent ends the judge's
  group (SIGTERM, 2 s grace, SIGKILL) and every descendant, removes the run folder, exits.
- stdout, remote -> local: first MAGIC (anything a login shell's rc file printed before it
  is skipped by the reader), then frames of 1 type byte + 4-byte big-endian length + payload:
  E (bytes of the judge's event stream, JSON lines), O / R (the solution's stdout / stderr),
  F (the judge's faulthandler log, sent once at the end when not empty), W (a JSON
  {"step", "message"}: the agent itself failed at a named step) and X (a JSON
  {"returncode"}: the judge's exit status, always the last frame of a complete run).

The agent is a child subreaper: whatever the judge's worker leaves behind (the worker runs
in its own session) is re-parented to it and killed before it exits, so nothing is left
running on the remote after a run, a Stop or a drop.
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tarfile
import tempfile
import time

from studio.drills.harness import sandbox

MAGIC = b"\x00STUDIO-DRILL-AGENT-1\x00"
RUN_TOKEN = "@STUDIO_RUN@"
CACHE_TOKEN = "@STUDIO_CACHE@"
_TERM_GRACE_S = 2.0
_EXIT_GRACE_S = 1.0
_MAX_TAR = 1 << 30


class _Gone(Exception):
    """The local end is gone (stdin closed or stdout broken)."""


class Agent:
    def __init__(self, root: str) -> None:
        self.root = os.path.expanduser(root)
        self.out = sys.stdout.buffer
        self.stdin_fd = sys.stdin.fileno()
        self.rundir: str | None = None
        self.proc: subprocess.Popen | None = None

    # ----- frames ---------------------------------------------------------------------
    def frame(self, kind: bytes, payload: bytes) -> None:
        try:
            self.out.write(kind + struct.pack(">I", len(payload)) + payload)
            self.out.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise _Gone() from exc

    def fail(self, step: str, message: str) -> int:
        try:
            self.frame(b"W", json.dumps({"step": step, "message": message}).encode())
        except _Gone:
            pass
        return 3

    def _read_exact(self, size: int) -> bytes:
        parts, left = [], size
        while left:
            chunk = os.read(self.stdin_fd, min(left, 1 << 20))
            if not chunk:
                raise _Gone()
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)

    # ----- steps ----------------------------------------------------------------------
    def receive(self) -> str:
        """Unpack the run's files into a fresh run folder; returns the request path."""
        (size,) = struct.unpack(">Q", self._read_exact(8))
        if size > _MAX_TAR:
            raise ValueError(f"the run's files are {size} bytes, more than the {_MAX_TAR} allowed")
        data = self._read_exact(size)
        runs = os.path.join(self.root, "runs")
        os.makedirs(runs, exist_ok=True)
        self.rundir = tempfile.mkdtemp(prefix="run-", dir=runs)
        import io

        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
            for member in archive.getmembers():
                name = os.path.normpath(member.name)
                if name.startswith(("/", "..")) or not (member.isfile() or member.isdir()):
                    raise ValueError(f"refused an unsafe entry in the run's files: {member.name!r}")
            if hasattr(tarfile, "data_filter"):
                archive.extractall(self.rundir, filter="data")
            else:  # Python < 3.12 without the backport: entries were checked above
                archive.extractall(self.rundir)
        cache = os.path.join(self.root, "cache")
        os.makedirs(cache, exist_ok=True)
        path = os.path.join(self.rundir, "request.json")
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        text = (text.replace(RUN_TOKEN, json.dumps(self.rundir)[1:-1])
                .replace(CACHE_TOKEN, json.dumps(cache)[1:-1]))
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return path

    def run(self, request_path: str) -> int:
        ours, theirs = socket.socketpair()
        event_fd, write_fd = ours.detach(), theirs.detach()
        command = [sys.executable, "-m", "studio.drills.harness", "--events-fd", str(write_fd),
                   "--request", request_path]
        self.proc = proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, pass_fds=(write_fd,), cwd=self.rundir,
                                            start_new_session=True)
        os.close(write_fd)
        names = {event_fd: b"E", proc.stdout.fileno(): b"O", proc.stderr.fileno(): b"R"}
        selector = selectors.DefaultSelector()
        for fd in names:
            selector.register(fd, selectors.EVENT_READ)
        selector.register(self.stdin_fd, selectors.EVENT_READ)
        exited_at = None
        try:
            while any(fd in selector.get_map() for fd in names):
                if proc.poll() is not None:
                    exited_at = exited_at or time.monotonic()
                    if time.monotonic() - exited_at > _EXIT_GRACE_S:
                        break          # a leftover descendant holds a pipe open
                for key, _ in selector.select(timeout=0.1):
                    fd = key.fd
                    data = os.read(fd, 1 << 16)
                    if fd == self.stdin_fd:
                        if not data:
                            raise _Gone()
                        if b"K" in data:
                            self.kill()
                        elif b"T" in data:
                            self.terminate()
                        continue
                    if not data:
                        selector.unregister(fd)
                        continue
                    self.frame(names[fd], data)
        finally:
            selector.close()
            os.close(event_fd)
        proc.wait()
        self.kill()                       # anything the worker left behind
        log = os.path.join(self.rundir, "faulthandler.log")
        try:
            with open(log, "rb") as handle:
                text = handle.read(1 << 20)
        except OSError:
            text = b""
        if text.strip():
            self.frame(b"F", text)
        self.frame(b"X", json.dumps({"returncode": proc.returncode}).encode())
        return 0

    # ----- ending the judge -------------------------------------------------------------
    def terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGTERM)
            except OSError:
                pass

    def kill(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        sandbox.kill_descendants()

    def end(self) -> None:
        """The connection is gone: stop the judge, then kill what is left."""
        if self.proc is not None and self.proc.poll() is None:
            self.terminate()
            deadline = time.monotonic() + _TERM_GRACE_S
            while self.proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
        self.kill()

    def cleanup(self) -> None:
        if self.rundir:
            shutil.rmtree(self.rundir, ignore_errors=True)


def _hangup(signum, frame) -> None:
    raise _Gone()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="studio.drills.targets.agent")
    parser.add_argument("--root", required=True)
    args = parser.parse_args(argv)
    sandbox.become_subreaper()
    agent = Agent(args.root)
    signal.signal(signal.SIGHUP, _hangup)
    signal.signal(signal.SIGTERM, _hangup)
    try:
        try:
            agent.out.write(MAGIC)
            agent.out.flush()
            request = agent.receive()
        except (_Gone, BrokenPipeError):
            return 2
        except (OSError, ValueError, tarfile.TarError, struct.error) as exc:
            return agent.fail("receive the run's files", f"{type(exc).__name__}: {exc}")
        try:
            return agent.run(request)
        except _Gone:
            agent.end()
            return 2
        except OSError as exc:
            agent.end()
            return agent.fail("start the judge", f"{type(exc).__name__}: {exc}")
    finally:
        agent.cleanup()


if __name__ == "__main__":
    raise SystemExit(main())
