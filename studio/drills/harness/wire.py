"""Writes the harness's events to the runner as JSON lines on a dedicated pipe fd.

The fd is passed by the runner (os.pipe + pass_fds) and is kept out of reach of the
solution's subprocesses (not inheritable). Writes are whole lines so the parent can
split on newlines; a broken pipe means the parent is gone and the child must stop.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any


class EventWriter:
    def __init__(self, fd: int) -> None:
        self._fd = fd
        os.set_inheritable(fd, False)

    def emit(self, event: str, **payload: Any) -> None:
        line = json.dumps({"event": event, **finite(payload)}, default=str) + "\n"
        data = line.encode("utf-8")
        while data:
            written = os.write(self._fd, data)
            data = data[written:]

    def close(self) -> None:
        try:
            os.close(self._fd)
        except OSError:
            pass


def finite(value: Any) -> Any:
    """JSON has no inf/nan: send them as null (messages carry the readable value)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value
