"""Containment of the process that runs the user's code, and cleanup of what it leaves.

Linux only; every measure degrades to "not available" (and says so) elsewhere.

- `restrict_worker(writable)`: called in the worker before the user's module is imported.
  It sets no_new_privs and applies a Landlock ruleset (kernel 5.13+, unprivileged) that
  allows writing only below `writable` (the run's scratch folder, the GPU device nodes, the
  compiler caches): the user's database and anything else of theirs stay read-only for the
  submission. A Landlock domain also keeps the worker from ptracing or reading the memory
  of any process outside it (the judge, the app), and, with ABI 6, from signalling them.
- `make_private()`: the judge marks itself non-dumpable, so /proc/<judge>/fd, /mem and
  ptrace are closed to other processes of the same user.
- `become_subreaper()` / `kill_descendants()`: the judge adopts every orphan its worker
  leaves (also ones that called setsid) and kills the whole tree at the end of a run.
- `tree_rss_bytes(pid)`: resident memory of a process and its descendants, polled by the
  judge to enforce the memory limit with a plain message.
"""

from __future__ import annotations

import ctypes
import os
import signal
import struct
import time

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
SYS_LANDLOCK_CREATE_RULESET = 444
SYS_LANDLOCK_ADD_RULE = 445
SYS_LANDLOCK_RESTRICT_SELF = 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
LANDLOCK_SCOPE_SIGNAL = 1 << 1

# Every filesystem right that changes something (reading stays allowed everywhere).
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE = sum(1 << b for b in range(6, 13))           # char, dir, reg, sock, fifo, block, sym
_REFER, _TRUNCATE = 1 << 13, 1 << 14                # ABI 2, ABI 3
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def _prctl(option: int, value: int) -> bool:
    libc = _libc()
    return libc is not None and libc.prctl(option, value, 0, 0, 0) == 0


def make_private() -> bool:
    """Make this process non-dumpable (its /proc files and memory closed to the same user)."""
    return _prctl(PR_SET_DUMPABLE, 0)


def become_subreaper() -> bool:
    """Orphaned descendants are re-parented to this process instead of init."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, or 0 where Landlock is unavailable."""
    libc = _libc()
    if libc is None or not os.uname().sysname == "Linux":
        return 0
    version = libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
    return max(int(version), 0)


def restrict_worker(writable: list[str]) -> str:
    """Apply the worker's sandbox; returns a one-line description of what is in force."""
    abi = landlock_abi()
    if abi <= 0:
        return "filesystem guard unavailable (no Landlock in this kernel)"
    handled = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE
    if abi >= 2:
        handled |= _REFER
    if abi >= 3:
        handled |= _TRUNCATE
    scoped = LANDLOCK_SCOPE_SIGNAL if abi >= 6 else 0
    if abi >= 6:
        attr = struct.pack("<QQQ", handled, 0, scoped)
    elif abi >= 4:
        attr = struct.pack("<QQ", handled, 0)
    else:
        attr = struct.pack("<Q", handled)
    libc = _libc()
    buffer = ctypes.create_string_buffer(attr, len(attr))
    ruleset = libc.syscall(SYS_LANDLOCK_CREATE_RULESET, buffer, ctypes.c_size_t(len(attr)), 0)
    if ruleset < 0:
        return f"filesystem guard unavailable ({os.strerror(ctypes.get_errno())})"
    try:
        allowed = []
        for path in dict.fromkeys(writable):
            if not path or not os.path.isdir(path):
                continue
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = ctypes.create_string_buffer(struct.pack("<Qi", handled, fd), 12)
                if libc.syscall(SYS_LANDLOCK_ADD_RULE, ruleset, LANDLOCK_RULE_PATH_BENEATH,
                                rule, 0) == 0:
                    allowed.append(path)
            finally:
                os.close(fd)
        if not _prctl(PR_SET_NO_NEW_PRIVS, 1):
            return "filesystem guard unavailable (no_new_privs refused)"
        if libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0) != 0:
            return f"filesystem guard unavailable ({os.strerror(ctypes.get_errno())})"
    finally:
        os.close(ruleset)
    extra = ", no signals to other processes" if scoped else ""
    return f"Landlock ABI {abi}: writes only under {', '.join(allowed)}{extra}"


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # The command name may hold spaces or parentheses: fields start after the last ')'.
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    return children


def descendants(pid: int) -> list[int]:
    """Every live descendant of pid (Linux /proc); empty where /proc is missing."""
    if not os.path.isdir("/proc"):
        return []
    children = _children_map()
    found, stack = [], list(children.get(pid, []))
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(children.get(child, []))
    return found


def kill_descendants(pid: int | None = None, rounds: int = 20) -> int:
    """SIGKILL every descendant of pid (default: this process), until none is left."""
    root = os.getpid() if pid is None else pid
    killed = 0
    for _ in range(rounds):
        tree = descendants(root)
        if not tree:
            break
        for child in tree:
            try:
                os.kill(child, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        _reap()
        time.sleep(0.02)
    return killed


def _reap() -> None:
    """Collect exited children (orphans adopted as a subreaper included)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def tree_rss_bytes(pid: int) -> int:
    """Resident memory of pid and its descendants, in bytes (0 where unknown)."""
    total = 0
    for member in [pid, *descendants(pid)]:
        try:
            with open(f"/proc/{member}/statm", "rb") as handle:
                total += int(handle.read().split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            continue
    return total
