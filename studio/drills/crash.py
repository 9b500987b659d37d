"""Explain a drill process that died without finishing (no torch, no Qt).

Used by the judge for the worker (where the user's code runs) and by the runner for the
judge: the exit status becomes a sentence, and the faulthandler log points at the line of
the user's file that was running, when there is one.
"""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

from studio.drills.result import ErrorInfo


def crash_info(exit_code: int | None, during: str, fault_log_path: Path | None,
               solution: str) -> ErrorInfo:
    if exit_code is not None and exit_code < 0:
        try:
            name = signal.Signals(-exit_code).name
        except ValueError:
            name = f"signal {-exit_code}"
        how = f"the process was killed by {name}"
    else:
        how = f"the process exited with code {exit_code} before finishing (os._exit, or a fatal error)"
    fault_log = ""
    if fault_log_path is not None and fault_log_path.is_file():
        fault_log = fault_log_path.read_text(encoding="utf-8", errors="replace").strip()
    line = line_in_log(fault_log, solution)
    where = f" ({os.path.basename(solution)}, line {line})" if line else ""
    return ErrorInfo("crash", f"the solution crashed: {how}{during}{where}", file=solution,
                     line=line, traceback=fault_log or None)


def line_in_log(fault_log: str, solution: str) -> int | None:
    """The innermost line of `solution` in a faulthandler dump (most recent call first)."""
    for match in re.finditer(r'File "([^"]+)", line (\d+)', fault_log):
        if os.path.realpath(match.group(1)) == os.path.realpath(solution):
            return int(match.group(2))
    return None
