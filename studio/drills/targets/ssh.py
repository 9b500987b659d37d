"""A remote host over SSH: the judge runs there, its events come back here.

Uses the system's OpenSSH client, so whatever the user's `ssh HOST` does (an alias in
~/.ssh/config, ProxyJump, keys, an agent) works here too. Passwords are never asked for or
stored: every call has BatchMode=yes, so a host that wants a password fails with a plain
message. One master connection per host (ControlMaster, a socket in a private folder under
/tmp, ControlPersist 10 minutes) is started explicitly (`ssh -f -N -M`) so that runs reuse
it; every other call is a client of that master and costs one channel, not a login.

A run, step by step (each failure is a TargetError, or an error event, naming its step):

1. connect: `ssh -O check`, else start the master; unreachable host, refused
   authentication or an unknown host key are told apart from ssh's messages.
2. copy the harness: the studio.drills package (plus studio/__init__.py) is packed as a tar
   in memory; a SHA-256 of its files keys a folder `<root>/pkg-<hash>` on the remote
   (root: ~/.cache/ml-infra-studio/remote). `test -f pkg-<hash>/.complete` tells whether it
   is there; if not, the tar is streamed to `tar -x` into a temporary folder that is renamed
   into place (a full disk fails with tar's message and leaves nothing half-copied).
   Checked once per host and package per process.
3. run: `exec env PYTHONPATH=<pkg> <remote python> -m studio.drills.targets.agent`, fed the
   run's files (request.json with its paths mapped, the solution and the problem's own files)
   as a length-prefixed tar on stdin. The agent (agent.py) starts the judge in its own process
   group and frames its three streams onto stdout; a local thread here splits them back into
   a socketpair (events) and two pipes (stdout, stderr), so the runner reads a remote run
   exactly as a local one. Stop writes b"T" then b"K" on the channel; closing the channel
   (Stop's last step, the app exiting, a dropped connection) makes the agent end the judge's
   group and every process the run left on the remote.

Paths: a local file /a/b.py is sent as files/a/b.py inside the run folder and the request
names it "@STUDIO_RUN@/files/a/b.py"; the agent replaces the token with its run folder.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import queue
import re
import shlex
import socket
import struct
import subprocess
import tarfile
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from studio.drills.targets import TargetError
from studio.drills.targets.agent import MAGIC

DEFAULT_ROOT = "~/.cache/ml-infra-studio/remote"
CONNECT_TIMEOUT_S = 10
CONTROL_PERSIST_S = 600
RUN_FILES_LIMIT = 64 << 20            # bytes of solution + problem files sent per run
_PACKAGE_ROOT = Path(__file__).resolve().parents[3]   # the folder holding studio/
_NO_PACKAGE, _NO_PYTHON = 97, 98
_KILL_WAIT_S = 5.0
_RECHECK_S = 60.0                      # a master checked this recently is not checked again

_package_cache: tuple[str, bytes] | None = None
_installed: set[tuple] = set()
_installed_lock = threading.Lock()


# ----- host, options, messages -------------------------------------------------------------
def split_host(host: str) -> tuple[str, str | None]:
    """'user@host:2222' -> ('user@host', '2222'); an alias or a plain host has no port."""
    host = host.strip()
    match = re.fullmatch(r"(.+):(\d{1,5})", host)
    if match and ":" not in match.group(1):
        return match.group(1), match.group(2)
    return host, None


def check_host(host: str) -> str:
    """A plain reason why `host` cannot be an SSH destination, or ''."""
    dest, _ = split_host(host)
    if not dest:
        return "no host given"
    if dest.startswith("-") or any(c.isspace() for c in dest) or any(c in dest for c in "'\"`$;|&<>\\"):
        return f"{host!r} is not a host name, alias or user@host[:port]"
    return ""


def ssh_failure(host: str, step: str, stderr: str, code: int | None = None,
                default: str = "ssh failed") -> str:
    """ssh's exit 255 and stderr -> one plain sentence naming the step."""
    text = stderr.strip()
    last = text.splitlines()[-1] if text else (f"ssh exited with status {code}" if code is not None else "")
    lower = text.lower()
    if "could not resolve hostname" in lower or "name or service not known" in lower:
        why = "the host name cannot be resolved"
    elif "connection refused" in lower:
        why = "the host refused the connection (no SSH server on that port?)"
    elif "timed out" in lower or "no route to host" in lower or "network is unreachable" in lower:
        why = "the host cannot be reached"
    elif "permission denied" in lower or "too many authentication failures" in lower:
        why = ("authentication refused: the app never asks for a password, so a key or the "
               "ssh-agent must log in (set one up with ssh-copy-id, then `ssh HOST true` must work "
               "without a prompt)")
    elif "host key verification failed" in lower or "remote host identification has changed" in lower:
        why = ("the host key is unknown or has changed: connect once with `ssh HOST` in a terminal "
               "and check the key")
    elif "closed by remote host" in lower or "broken pipe" in lower or "connection reset" in lower:
        why = "the connection dropped"
    else:
        why = default
    return f"SSH to {host}, step '{step}': {why} ({last})" if last else f"SSH to {host}, step '{step}': {why}"


def _remote_path(path: str) -> str:
    """A remote path for sh: a leading ~/ becomes "$HOME"/, the rest is quoted."""
    if path == "~":
        return '"$HOME"'
    if path.startswith("~/"):
        return '"$HOME"/' + shlex.quote(path[2:])
    return shlex.quote(path)


# ----- the package ---------------------------------------------------------------------------
def package_tar() -> tuple[str, bytes]:
    """(hash, tar bytes) of studio/__init__.py and studio/drills (no caches), made once."""
    global _package_cache
    if _package_cache is None:
        files = [_PACKAGE_ROOT / "studio" / "__init__.py"]
        drills = _PACKAGE_ROOT / "studio" / "drills"
        files += sorted(p for p in drills.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                        and p.suffix not in (".pyc", ".pyo"))
        digest = hashlib.sha256()
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
            for path in files:
                name = path.relative_to(_PACKAGE_ROOT).as_posix()
                data = path.read_bytes()
                digest.update(name.encode() + b"\0" + struct.pack(">Q", len(data)) + data)
                info = tarfile.TarInfo(name)
                info.size, info.mode, info.mtime = len(data), 0o644, 0
                archive.addfile(info, io.BytesIO(data))
        _package_cache = (digest.hexdigest()[:16], buffer.getvalue())
    return _package_cache


# ----- the run's files -----------------------------------------------------------------------
RUN_TOKEN = "@STUDIO_RUN@"
CACHE_TOKEN = "@STUDIO_CACHE@"
_SKIP_DIRS = {"__pycache__", ".git", ".hg", ".svn", "node_modules", ".venv"}


class RunFiles:
    """Local files to send with a run, each under files/<absolute path>."""

    def __init__(self, limit: int = RUN_FILES_LIMIT) -> None:
        self.limit = limit
        self.files: dict[str, Path] = {}
        self.size = 0

    def add_file(self, path: Path) -> None:
        path = Path(path).resolve()
        key = path.as_posix()
        if key in self.files or not path.is_file():
            return
        self.size += path.stat().st_size
        if self.size > self.limit:
            raise TargetError(f"the run's files pass {self.limit >> 20} MiB (at {path}): too much to send "
                              f"with every run", step="collect the run's files")
        self.files[key] = path

    def add_tree(self, folder: Path) -> None:
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
            for name in sorted(names):
                if not name.endswith((".pyc", ".pyo")):
                    self.add_file(Path(root) / name)

    def add_helpers(self, folder: Path, subfolders: bool) -> None:
        """An import root's own files and, with `subfolders`, its flat folders of modules
        (LeetGPU's challenges/core/; difficulty folders hold problem folders and are left)."""
        if not folder.is_dir():
            return
        for child in sorted(folder.iterdir()):
            if child.is_file():
                self.add_file(child)
            elif (subfolders and child.is_dir() and child.name not in _SKIP_DIRS
                  and not any(p.is_dir() for p in child.iterdir())):
                self.add_tree(child)

    @staticmethod
    def remote(path: str | Path) -> str:
        return f"{RUN_TOKEN}/files{Path(path).resolve().as_posix()}"

    def tar(self, request: dict) -> bytes:
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
            data = json.dumps(request).encode()
            info = tarfile.TarInfo("request.json")
            info.size, info.mode = len(data), 0o600
            archive.addfile(info, io.BytesIO(data))
            for key, path in self.files.items():
                archive.add(str(path), arcname="files" + key, recursive=False)
        return buffer.getvalue()


def map_request(payload: dict) -> tuple[dict, RunFiles]:
    """The judge's request with remote paths, and the files it names."""
    files = RunFiles()
    request = json.loads(json.dumps(payload))
    solution = Path(request["solution"])
    files.add_file(solution)
    request["solution"] = files.remote(solution)
    drill = request.get("drill") or {}
    spec_module = drill.get("spec_module")
    if spec_module and Path(spec_module).is_file():   # a pack problem has none ("None")
        spec = Path(spec_module)
        files.add_tree(spec.parent)
        drill["spec_module"] = files.remote(spec)
    if drill.get("bench_spec"):
        spec = Path(drill["bench_spec"])
        files.add_file(spec)
        drill["bench_spec"] = files.remote(spec)
    pack = drill.get("pack_problem")
    if isinstance(pack, dict) and pack.get("folder"):
        folder = Path(pack["folder"])
        files.add_tree(folder)
        files.add_helpers(folder.parent, subfolders=False)        # GPU MODE: utils.py, eval.py beside the problems
        files.add_helpers(folder.parent.parent, subfolders=True)  # LeetGPU: challenges/core/
        pack["folder"] = files.remote(folder)
        if pack.get("root"):
            pack["root"] = files.remote(pack["root"])
    request["cache_dir"] = CACHE_TOKEN
    request["faulthandler_log"] = f"{RUN_TOKEN}/faulthandler.log"
    return request, files


# ----- the target ----------------------------------------------------------------------------
@dataclass
class Check:
    """One line of the connection doctor."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


@dataclass
class DoctorReport:
    host: str
    checks: list[Check] = field(default_factory=list)
    facts: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def device(self) -> str:
        """The remote GPU's name, '' when it has none (drills run under the interpreter)."""
        return self.facts.get("gpu") or ""

    @property
    def runnable(self) -> bool:
        """Drills can run there: everything but a GPU (interpreter) and nvcc (CUDA drills) is in place."""
        names = {c.name: c.ok for c in self.checks}
        return all(names.get(n) for n in ("ssh", "python", "harness", "torch", "triton"))

    def missing(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]


class SshTarget:
    def __init__(self, host: str, python: str = "python3", *, root: str | None = None,
                 ssh_options: list[str] | None = None, control_dir: str | None = None,
                 connect_timeout: int = CONNECT_TIMEOUT_S, ssh: str = "ssh") -> None:
        self.host = host.strip()
        self.python = python.strip() or "python3"
        self.root = root or DEFAULT_ROOT
        if ssh_options is None:
            # STUDIO_SSH_CONFIG: an ssh config file to use instead of ~/.ssh/config (ssh -F).
            config = os.environ.get("STUDIO_SSH_CONFIG")
            ssh_options = ["-F", config] if config else []
        self.ssh_options = list(ssh_options)
        self.control_dir = control_dir or os.path.join(tempfile.gettempdir(), f"studio-ssh-{os.getuid()}")
        self.connect_timeout = connect_timeout
        self.ssh = ssh
        self.label = f"ssh {self.host}"
        self._connected_at = -1e9

    # ----- ssh command lines ---------------------------------------------------------------
    def _base(self, master: str = "no") -> list[str]:
        dest, port = split_host(self.host)
        argv = [self.ssh, *self.ssh_options, "-o", "BatchMode=yes", "-o", f"ConnectTimeout={self.connect_timeout}",
                "-o", f"ControlPath={self.control_dir}/%C", "-o", f"ControlMaster={master}",
                "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "-T"]
        if port:
            argv += ["-p", port]
        return argv + [dest]

    def command(self, script: str) -> list[str]:
        """ssh argv that runs `script` with sh on the remote (whatever the login shell is)."""
        return self._base() + ["--", "exec sh -c " + shlex.quote(script)]

    def _call(self, script: str, step: str, *, stdin: bytes | None = None,
              timeout: float = 60.0) -> subprocess.CompletedProcess:
        try:
            return subprocess.run(self.command(script), input=stdin if stdin is not None else b"",
                                  capture_output=True, timeout=timeout)
        except FileNotFoundError as exc:
            raise TargetError(f"no ssh client found ({self.ssh}): install OpenSSH", step=step) from exc
        except subprocess.TimeoutExpired as exc:
            raise TargetError(f"SSH to {self.host}, step '{step}': no answer within {timeout:g} s",
                              step=step) from exc

    # ----- step 1: connect -------------------------------------------------------------------
    def connect(self) -> None:
        step = "connect"
        reason = check_host(self.host)
        if reason:
            raise TargetError(f"SSH host: {reason}", step=step)
        if time.monotonic() - self._connected_at < _RECHECK_S:
            return      # checked a moment ago; were the master gone, ssh would connect directly
        os.makedirs(self.control_dir, mode=0o700, exist_ok=True)
        check = self._base()[:-1] + ["-O", "check", self._base()[-1]]
        try:
            if subprocess.run(check, capture_output=True, timeout=10).returncode == 0:
                self._connected_at = time.monotonic()
                return
        except FileNotFoundError as exc:
            raise TargetError(f"no ssh client found ({self.ssh}): install OpenSSH", step=step) from exc
        except subprocess.TimeoutExpired:
            pass
        master = self._base("yes")
        master[-1:-1] = ["-o", f"ControlPersist={CONTROL_PERSIST_S}", "-f", "-N"]
        # The master lives on in the background: it must not hold a pipe of ours open.
        with tempfile.TemporaryFile() as err:
            try:
                proc = subprocess.run(master, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=err, timeout=self.connect_timeout + 20)
            except subprocess.TimeoutExpired as exc:
                raise TargetError(f"SSH to {self.host}, step 'connect': the host cannot be reached "
                                  f"(no answer within {self.connect_timeout + 20} s)", step=step) from exc
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        if proc.returncode != 0:
            raise TargetError(ssh_failure(self.host, step, text, proc.returncode), step=step)
        self._connected_at = time.monotonic()

    def close(self) -> None:
        """End the master connection (tests at teardown; the app leaves it to ControlPersist)."""
        self._connected_at = -1e9
        base = self._base()
        try:
            subprocess.run(base[:-1] + ["-O", "exit", base[-1]], capture_output=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            pass

    # ----- step 2: copy the harness ------------------------------------------------------------
    def package_dir(self) -> str:
        digest, _ = package_tar()
        return f"{self.root.rstrip('/')}/pkg-{digest}"

    def _python_check(self) -> str:
        py = _remote_path(self.python)
        return (f"command -v {py} >/dev/null 2>&1 || {{ echo \"no command {self.python} on this host\" >&2; "
                f"exit {_NO_PYTHON}; }}")

    def ensure_package(self) -> None:
        digest, data = package_tar()
        key = (self.host, self.root, self.python, digest, tuple(self.ssh_options))
        with _installed_lock:
            if key in _installed:
                return
        pkg = _remote_path(self.package_dir())
        probe = self._call(f"{self._python_check()}; test -f {pkg}/.complete", "check the remote Python")
        if probe.returncode == 255:
            raise TargetError(ssh_failure(self.host, "check the remote Python", probe.stderr.decode(errors="replace")),
                              step="check the remote Python")
        if probe.returncode == _NO_PYTHON:
            raise TargetError(f"SSH to {self.host}, step 'check the remote Python': no Python at "
                              f"{self.python!r} there (set the remote Python to its full path, e.g. "
                              f"~/miniconda3/envs/gpu/bin/python)", step="check the remote Python")
        if probe.returncode != 0:
            root = _remote_path(self.root)
            script = (f"set -e; mkdir -p {root}; tmp=$(mktemp -d {root}/.pkg-XXXXXX); "
                      f"trap 'rm -rf \"$tmp\"' EXIT; tar -x -f - -C \"$tmp\"; : > \"$tmp/.complete\"; "
                      f"if [ ! -d {pkg} ]; then mv \"$tmp\" {pkg}; fi")
            step = "copy the harness"
            done = self._call(script, step, stdin=data, timeout=120)
            if done.returncode != 0:
                text = done.stderr.decode("utf-8", "replace")
                if done.returncode == 255:
                    raise TargetError(ssh_failure(self.host, step, text), step=step)
                full = " (the remote disk is full)" if "no space left" in text.lower() else ""
                tail = text.strip().splitlines()[-1] if text.strip() else f"status {done.returncode}"
                raise TargetError(f"SSH to {self.host}, step '{step}' to {self.root}: failed{full}: {tail}",
                                  step=step)
        with _installed_lock:
            _installed.add(key)

    # ----- step 3: run -------------------------------------------------------------------------
    def run_command(self, interpret: bool) -> list[str]:
        pkg = _remote_path(self.package_dir())
        extra = "TRITON_INTERPRET=1 " if interpret else ""
        script = (f"{self._python_check()}; test -f {pkg}/.complete || exit {_NO_PACKAGE}; cd {pkg} && "
                  f"exec env -u TRITON_INTERPRET PYTHONPATH=\"$PWD\" PYTHONUNBUFFERED=1 "
                  f"PYTHONDONTWRITEBYTECODE=1 {extra}{_remote_path(self.python)} "
                  f"-m studio.drills.targets.agent --root {_remote_path(self.root)}")
        return self.command(script)

    def start(self, payload: dict, workdir) -> "SshChild":
        request, files = map_request(payload)
        self.connect()
        self.ensure_package()
        blob = files.tar(request)
        try:
            proc = subprocess.Popen(self.run_command(bool(payload.get("interpret"))), stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            raise TargetError(f"cannot start ssh: {exc}", step="run") from exc
        return SshChild(self, proc, Path(workdir), struct.pack(">Q", len(blob)) + blob)

    def _probe(self) -> dict:
        """languages.probe's facts from the Python there, plus triton's version (harness copied)."""
        script = ("import json\nfrom studio.drills.languages.probe import facts\nf = facts()\n"
                  "try:\n    import triton\n    f['triton'] = triton.__version__\n"
                  "except Exception as exc:\n    f['triton_error'] = type(exc).__name__ + ': ' + str(exc)\n"
                  "print(json.dumps(f))\n")
        pkg = _remote_path(self.package_dir())
        step = "probe the remote Python"
        out = self._call(f"cd {pkg} && PYTHONPATH=\"$PWD\" {_remote_path(self.python)} -", step,
                         stdin=script.encode(), timeout=120)
        try:
            return json.loads(out.stdout.decode("utf-8", "replace").strip().splitlines()[-1])
        except (ValueError, IndexError) as exc:
            text = out.stderr.decode("utf-8", "replace").strip()
            if out.returncode == 255:
                raise TargetError(ssh_failure(self.host, step, text), step=step) from exc
            raise TargetError(f"SSH to {self.host}, step '{step}': "
                              f"{text.splitlines()[-1] if text else f'status {out.returncode}'}", step=step) from exc

    def language_facts(self) -> dict:
        """What the host's Python can build and run (for the Drills pane's language picker)."""
        try:
            self.connect()
            self.ensure_package()
            return self._probe()
        except TargetError as exc:
            return {"probe_error": str(exc)}

    def device_name(self) -> str:
        """The host's first GPU by nvidia-smi ('' where it has none): cheap, for a status bar."""
        self.connect()
        out = self._call("nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null", "ask the GPU's name",
                         timeout=30)
        if out.returncode == 255:
            raise TargetError(ssh_failure(self.host, "ask the GPU's name", out.stderr.decode(errors="replace")),
                              step="ask the GPU's name")
        lines = out.stdout.decode("utf-8", "replace").strip().splitlines()
        return lines[0].strip() if out.returncode == 0 and lines else ""

    # ----- the doctor --------------------------------------------------------------------------
    def doctor(self) -> DoctorReport:
        """Every step a run needs, and what the remote has: one report of what is missing."""
        report = DoctorReport(self.host)
        add = report.checks.append
        try:
            self.connect()
        except TargetError as exc:
            add(Check("ssh", False, str(exc), "check the host name, that `ssh HOST true` works in a "
                                              "terminal without a password prompt"))
            return report
        out = self._call(f"uname -n; {self._python_check()}; {_remote_path(self.python)} -c "
                         f"'import sys; print(sys.version.split()[0])'", "check the remote Python")
        lines = out.stdout.decode("utf-8", "replace").split()
        add(Check("ssh", True, f"connected to {lines[0] if lines else self.host}"))
        if out.returncode != 0 or len(lines) < 2:
            text = out.stderr.decode("utf-8", "replace").strip()
            add(Check("python", False, f"{self.python}: {text.splitlines()[-1] if text else 'not found'}",
                      "set the remote Python to an interpreter that exists there (its full path)"))
            return report
        version = lines[1]
        ok = tuple(int(x) for x in re.findall(r"\d+", version)[:2]) >= (3, 9)
        add(Check("python", ok, f"{self.python} {version}", "" if ok else "Python 3.9 or newer is needed"))
        try:
            self.ensure_package()
            add(Check("harness", True, f"studio.drills copied to {self.package_dir()}"))
        except TargetError as exc:
            add(Check("harness", False, str(exc), "free some space there, or check the folder's permissions"))
            return report
        try:
            facts = self._probe()
        except TargetError as exc:
            add(Check("torch", False, f"the probe failed: {exc}"))
            return report
        report.facts = facts
        if facts.get("torch"):
            add(Check("torch", True, f"torch {facts['torch']}" + (f" (CUDA {facts['torch_cuda']})"
                                                                   if facts.get("torch_cuda") else " (CPU build)")))
        else:
            add(Check("torch", False, facts.get("torch_error") or "not installed",
                      f"install torch into {self.python}"))
        if facts.get("triton"):
            add(Check("triton", True, f"triton {facts['triton']}"))
        else:
            add(Check("triton", False, facts.get("triton_error") or "not installed",
                      "install triton (it comes with CUDA builds of torch on Linux)"))
        if facts.get("gpu"):
            add(Check("gpu", True, f"{facts['gpu']} (compute capability {facts.get('capability')})"))
        else:
            add(Check("gpu", False, facts.get("gpu_error") or "no CUDA GPU visible to torch",
                      "drills run there under Triton's interpreter (correctness only, no timing)"))
        if facts.get("nvcc"):
            add(Check("nvcc", True, f"nvcc {facts['nvcc']} ({facts.get('nvcc_path')})"))
        else:
            add(Check("nvcc", False, "not found (CUDA C++ drills need it)",
                      "install the CUDA toolkit or set CUDA_HOME for that Python"))
        return report


# ----- the child -----------------------------------------------------------------------------
class SshChild:
    """The remote judge seen as a local child: events on a socket, stdout/stderr on pipes."""

    def __init__(self, target: SshTarget, proc: subprocess.Popen, workdir: Path, blob: bytes) -> None:
        self.target = target
        self.proc = proc
        self.workdir = workdir
        ours, self._events = socket.socketpair()
        self.event_fd = ours.detach()
        out_r, self._out_w = os.pipe()
        err_r, self._err_w = os.pipe()
        self.stdout = os.fdopen(out_r, "rb", buffering=0)
        self.stderr = os.fdopen(err_r, "rb", buffering=0)
        self.returncode: int | None = None
        self._remote_rc: int | None = None
        self._ssh_err = bytearray()
        self._junk = b""
        self._killed = False
        self._control: queue.Queue = queue.Queue()
        self._control.put(blob)
        self._writer = threading.Thread(target=self._write, daemon=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._errors = threading.Thread(target=self._read_ssh_stderr, daemon=True)
        for thread in (self._writer, self._errors, self._reader):
            thread.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    # ----- control: local -> remote --------------------------------------------------------
    def _write(self) -> None:
        stdin = self.proc.stdin
        while True:
            item = self._control.get()
            if item is None:
                break
            try:
                stdin.write(item)
                stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                break
        try:
            stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def terminate(self) -> None:
        self._control.put(b"T")

    def kill_group(self) -> None:
        self._killed = True
        self._control.put(b"K")
        self._control.put(None)

    # ----- streams: remote -> local --------------------------------------------------------
    def _read_ssh_stderr(self) -> None:
        for chunk in iter(lambda: self.proc.stderr.read1(1 << 14), b""):
            if len(self._ssh_err) < 1 << 16:
                self._ssh_err += chunk

    def _read(self) -> None:
        stream = self.proc.stdout
        sinks = {b"O": self._out_w, b"R": self._err_w}
        failure = None
        try:
            if not self._skip_to_magic(stream):
                return
            while True:
                head = _read_exact(stream, 5)
                if head is None:
                    break
                kind, size = head[:1], struct.unpack(">I", head[1:])[0]
                data = _read_exact(stream, size)
                if data is None:
                    break
                if kind == b"E":
                    self._send_event(data)
                elif kind in sinks:
                    fd = sinks[kind]
                    if fd is not None:
                        try:
                            _write_all(fd, data)
                        except OSError:
                            os.close(fd)
                            sinks[kind] = None
                elif kind == b"F":
                    try:
                        (self.workdir / "faulthandler.log").write_bytes(data)
                    except OSError:
                        pass
                elif kind == b"W":
                    info = json.loads(data)
                    failure = (f"the remote agent on {self.target.host} failed at step "
                               f"'{info.get('step')}': {info.get('message')}")
                elif kind == b"X":
                    self._remote_rc = int(json.loads(data)["returncode"])
        except (ValueError, KeyError, struct.error) as exc:
            failure = f"unreadable data from the remote agent on {self.target.host}: {exc}"
        finally:
            # The remote side is done: let the writer close ssh's stdin and end now (wait()
            # joins it; left blocked on the queue it cost every run a 1 s join timeout).
            self._control.put(None)
            code = self._wait_ssh()
            self._errors.join(timeout=2)
            if self._remote_rc is None and not self._killed:
                self._send_error(failure or self._why_no_result(code))
            for fd in sinks.values():
                if fd is not None:
                    os.close(fd)
            self._events.close()
            self.returncode = self._remote_rc if self._remote_rc is not None else code

    def _skip_to_magic(self, stream) -> bool:
        """Skip what the remote login shell printed before the agent's first bytes (an rc file
        that echoes); False when the agent never spoke."""
        seen = b""
        while MAGIC not in seen:
            chunk = stream.read(1)
            if not chunk:
                self._junk = seen[-2000:]
                return False
            seen = (seen + chunk)[-(1 << 16):]
        self._junk = seen[:-len(MAGIC)][-2000:]
        return True

    def _wait_ssh(self) -> int:
        try:
            return self.proc.wait(timeout=_KILL_WAIT_S if self._killed else None)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def _why_no_result(self, code: int) -> str:
        text = bytes(self._ssh_err).decode("utf-8", "replace")
        host = self.target.host
        if code == _NO_PYTHON:
            return (f"SSH to {host}, step 'start the judge': no Python at {self.target.python!r} there")
        if code == _NO_PACKAGE:
            with _installed_lock:
                _installed.clear()
            return (f"SSH to {host}, step 'start the judge': the copy of the harness in {self.target.root} "
                    f"is gone (removed while the app ran?); run again to copy it")
        if code == 255:
            self.target._connected_at = -1e9       # check (and start) the master again next time
            return (ssh_failure(host, "run", text, code, default="the connection dropped mid-run")
                    + "; the remote agent ends the judge and every "
                    "process of the run when its connection closes")
        tail = text.strip().splitlines()[-6:]
        junk = self._junk.decode("utf-8", "replace").strip()
        if junk and not tail:
            tail = ["the login shell printed: " + junk[-300:]]
        return (f"SSH to {host}, step 'start the judge': {self.target.python} exited with status {code} "
                f"before the run finished" + (": " + " | ".join(tail) if tail else ""))

    def _send_event(self, data: bytes) -> None:
        try:
            self._events.sendall(data)
        except OSError:
            pass

    def _send_error(self, message: str) -> None:
        self._send_event(b"\n" + json.dumps({"event": "error", "kind": "remote_error",
                                             "message": message}).encode() + b"\n")

    # ----- the Popen surface ---------------------------------------------------------------
    def poll(self) -> int | None:
        if self._reader.is_alive():
            return None
        return self.returncode

    def wait(self) -> int:
        if self._killed:
            self._reader.join(timeout=_KILL_WAIT_S + 5)
            if self._reader.is_alive():
                self.proc.kill()
        self._reader.join()
        self._writer.join(timeout=1)
        return self.returncode  # type: ignore[return-value]


def _read_exact(stream, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        chunk = stream.read(left)
        if not chunk:
            return None
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
