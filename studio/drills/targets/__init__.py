"""Targets: where a drill's judge runs (DESIGN.md, "Drills and benches: ... targets").

The runner (runner.py) builds the judge's request and reads three streams back: the event
stream (JSON lines), the solution's stdout and its stderr. A target decides where the judge
runs and how those streams reach the runner:

- `local.LocalTarget`: this machine, `python -m studio.drills.harness` in its own process
  group, events over a socketpair (the default).
- `ssh.SshTarget`: a remote host through the system's OpenSSH client; the studio.drills
  package is copied once to a cache folder there (keyed by a hash of its files) and a small
  agent (agent.py) runs the judge and frames the three streams onto the SSH channel.

`Target.start(payload, workdir)` returns a child handle with the same surface for both:
`event_fd` (read end of the event stream), `stdout` / `stderr` (binary file objects),
`poll()`, `wait()`, `returncode`, `terminate()` (the judge's clean stop) and `kill_group()`
(the judge's whole process group, and on a remote, every process the run left). A target
that cannot start raises TargetError with the step that failed.

Nothing here imports torch, triton or Qt.
"""

from __future__ import annotations

from typing import Protocol


class TargetError(Exception):
    """A target could not start the judge; `kind` is the RunResult status to report."""

    def __init__(self, message: str, kind: str = "remote_error", step: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.step = step


class Child(Protocol):
    event_fd: int
    stdout: object
    stderr: object
    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self) -> int: ...
    def terminate(self) -> None: ...
    def kill_group(self) -> None: ...


class Target(Protocol):
    #: shown to the user: "this machine" or "ssh HOST"
    label: str

    def start(self, payload: dict, workdir) -> Child: ...


def remote_target(host: str | None, python: str | None):
    """The SshTarget a CLI's --remote HOST names (--python: the Python there), or None."""
    if not host:
        return None
    from studio.drills.targets.ssh import SshTarget

    return SshTarget(host, python=python or "python3")


def target_from_settings(settings) -> "Target":
    """The target the app's settings name ("drill_target": "local" or "ssh")."""
    from studio.drills.targets.local import LocalTarget

    python = settings.get("drill_python") or None
    if (settings.get("drill_target") or "local") == "ssh" and (settings.get("drill_ssh_host") or "").strip():
        from studio.drills.targets.ssh import SshTarget

        return SshTarget(settings.get("drill_ssh_host").strip(),
                         python=(settings.get("drill_remote_python") or "").strip() or "python3")
    return LocalTarget(python)


def language_facts(settings) -> dict:
    """What the drill device can build and run (languages.probe's facts), for the language
    picker: this machine's drill Python, or the SSH host's Python there."""
    return target_from_settings(settings).language_facts()
