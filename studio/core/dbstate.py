"""What the app remembers about a database outside the database itself.

A damaged or vanished file cannot tell us it used to hold a collection, so a small JSON
file beside it does: that a collection exists here, when it was last checked, and its
last known counts. A marker file per running process (`<db>.open-<pid>`) is created when
the database is opened and removed when it is closed cleanly; a marker left by a process
that is gone means the last session ended in a crash or a kill, and the next open runs
the integrity check whatever the day.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path

log = logging.getLogger(__name__)


def state_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".state.json")


@dataclass
class DbState:
    exists: bool = False  # a collection has been created at this path
    last_check: str = ""  # ISO date of the last passed check on open
    cards: int = 0
    reviews: int = 0

    @classmethod
    def load(cls, db_path: Path) -> DbState:
        path = state_path(db_path)
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            known = {k: raw[k] for k in cls.__dataclass_fields__ if k in raw}
            return cls(**known)
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError, TypeError) as exc:
            # An unreadable state file must not make a good database look new: say it existed.
            log.warning("%s unreadable (%s); assuming a collection exists", path, exc)
            return cls(exists=True)

    def save(self, db_path: Path) -> None:
        path = state_path(db_path)
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(asdict(self)), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:  # read-only folder or full disk: the next open checks again
            log.warning("cannot save %s: %s", path, exc)

    def checked_today(self, today: date | None = None) -> bool:
        return self.last_check == (today or date.today()).isoformat()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stale_markers(db_path: Path) -> list[Path]:
    """Markers of processes that opened the database and died without closing it."""
    stale = []
    for marker in db_path.parent.glob(db_path.name + ".open-*"):
        try:
            pid = int(marker.name.rsplit("-", 1)[1])
        except ValueError:
            stale.append(marker)
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            stale.append(marker)
    return stale


def clear_markers(markers: list[Path]) -> None:
    for marker in markers:
        marker.unlink(missing_ok=True)


def set_marker(db_path: Path) -> Path | None:
    marker = db_path.with_name(f"{db_path.name}.open-{os.getpid()}")
    try:
        marker.write_text("", encoding="utf-8")
    except OSError as exc:
        log.warning("cannot write %s: %s", marker, exc)
        return None
    return marker


def live_sessions(db_path: Path) -> list[int]:
    """Pids of other running processes that have the database open."""
    pids = []
    for marker in db_path.parent.glob(db_path.name + ".open-*"):
        try:
            pid = int(marker.name.rsplit("-", 1)[1])
        except ValueError:
            continue
        if pid != os.getpid() and _pid_alive(pid):
            pids.append(pid)
    return pids


def request_check(db_path: Path) -> None:
    """SQLite reported damage while working: the next open runs the check whatever the day."""
    state = DbState.load(db_path)
    state.last_check = ""
    state.save(db_path)
