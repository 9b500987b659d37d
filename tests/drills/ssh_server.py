"""A real OpenSSH server on 127.0.0.1 for the SSH target's tests (and bench/remote_overhead.py).

The OS package's sshd (Debian: openssh-server), run in the foreground as the current user
with a throwaway host key and user key in a temporary folder, on a free high port,
`StrictModes no` (the keys live in a world-readable tmp), password logins off. The client
side is an ssh config file naming the host `studio-test` with the user key and a
known_hosts file holding the host key, passed with -F so the user's own ~/.ssh/config is
never read.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

HOST_ALIAS = "studio-test"


def find_sshd() -> str | None:
    for candidate in (shutil.which("sshd"), "/usr/sbin/sshd", "/usr/local/sbin/sshd"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SshServer:
    def __init__(self, folder: Path | None = None) -> None:
        # Short paths: the client's control socket must fit a unix socket name.
        self.folder = Path(folder or tempfile.mkdtemp(prefix="sshd-", dir="/tmp"))
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None
        self.user = getpass.getuser()
        self.config = self.folder / "ssh_config"
        self.control_dir = str(self.folder / "cm")
        self.log = self.folder / "sshd.log"

    def start(self) -> "SshServer":
        sshd = find_sshd()
        if sshd is None:
            raise RuntimeError("no sshd (install the openssh-server package)")
        keygen = shutil.which("ssh-keygen")
        if keygen is None:
            raise RuntimeError("no ssh-keygen (install the openssh-client package)")
        f = self.folder
        for name in ("host_key", "user_key"):
            subprocess.run([keygen, "-q", "-t", "ed25519", "-N", "", "-f", str(f / name)], check=True)
        (f / "authorized_keys").write_text((f / "user_key.pub").read_text())
        (f / "known_hosts").write_text(f"[127.0.0.1]:{self.port} " + (f / "host_key.pub").read_text())
        (f / "sshd_config").write_text("\n".join([
            f"Port {self.port}", "ListenAddress 127.0.0.1", f"HostKey {f / 'host_key'}",
            f"PidFile {f / 'sshd.pid'}", f"AuthorizedKeysFile {f / 'authorized_keys'}",
            "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PubkeyAuthentication yes",
            "StrictModes no", "UsePAM no", "PermitRootLogin prohibit-password", "MaxSessions 64",
            "MaxStartups 64", "LogLevel VERBOSE", "",
        ]))
        os.chmod(f / "user_key", 0o600)
        self.config.write_text("\n".join([
            f"Host {HOST_ALIAS}", "  HostName 127.0.0.1", f"  Port {self.port}", f"  User {self.user}",
            f"  IdentityFile {f / 'user_key'}", "  IdentitiesOnly yes", f"  UserKnownHostsFile {f / 'known_hosts'}",
            "  StrictHostKeyChecking yes", "  LogLevel ERROR", "",
        ]))
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)   # privilege separation folder
        self.proc = subprocess.Popen([sshd, "-D", "-e", "-f", str(f / "sshd_config")],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(self.log, "wb"))  # noqa: SIM115
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"sshd exited: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("sshd did not listen within 10 s")

    @property
    def ssh_options(self) -> list[str]:
        return ["-F", str(self.config)]

    def target(self, **kwargs):
        """An SshTarget for this server (remote root in the server's folder unless given)."""
        import sys

        from studio.drills.targets.ssh import SshTarget

        kwargs.setdefault("python", sys.executable)
        kwargs.setdefault("root", str(self.folder / "remote"))
        kwargs.setdefault("control_dir", self.control_dir)
        return SshTarget(HOST_ALIAS, ssh_options=self.ssh_options, **kwargs)

    def session_pids(self) -> list[int]:
        """The per-connection sshd processes (every sshd below the listener: monitor and session)."""
        if self.proc is None:
            return []
        from studio.drills.harness.sandbox import descendants

        found = []
        for pid in descendants(self.proc.pid):
            try:
                comm = Path(f"/proc/{pid}/comm").read_text().strip()
            except OSError:
                continue
            if comm.startswith("sshd"):
                found.append(pid)
        return found

    def drop_connections(self) -> None:
        """Kill every sshd session process: the clients' connections drop mid-stream."""
        for pid in self.session_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def stop(self) -> None:
        if self.proc is not None:
            self.drop_connections()
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
