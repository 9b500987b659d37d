"""One plain sentence for the errors a user's machine causes (full disk, read-only folder).

SQLite and the OS report these as exception texts ("database or disk is full", "attempt
to write a readonly database", errno ENOSPC/EROFS/EACCES); the GUI and the CLI show the
sentence from `describe` instead, and the data is as it was before the action: every
write is one transaction, rolled back by SQLite when it fails.
"""

from __future__ import annotations

import errno
import sqlite3
import sys

DISK_FULL = ("The disk is full: nothing from this action was saved, and what was there before is kept. "
             "Free some space and try again.")
READ_ONLY = ("The data folder or database cannot be written (read-only, or no permission): nothing from "
             "this action was saved. You can keep reading; check the folder's permissions to save again.")
IO_ERROR = ("The disk reported an error while saving: nothing from this action was saved. If it happens "
            "again, run `studio db check` and look at the disk's health.")
DAMAGED = ("The database reported damage while working. Nothing more is written to it; restart the app "
           "to check it and restore a backup or salvage it.")
LOCKED = "The database is busy (another program is writing to it); try again in a moment."


def _message(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).lower()


def classify(exc: BaseException) -> str | None:
    """'disk_full' | 'read_only' | 'io' | 'damaged' | 'locked', or None for other errors."""
    if isinstance(exc, OSError) and not isinstance(exc, sqlite3.Error):
        return {errno.ENOSPC: "disk_full", errno.EDQUOT: "disk_full",
                errno.EROFS: "read_only", errno.EACCES: "read_only", errno.EPERM: "read_only",
                errno.EIO: "io"}.get(exc.errno)
    # SQLAlchemy's errors without importing SQLAlchemy (the window paints before it loads):
    # none can exist before it is imported.
    sa_exc = sys.modules.get("sqlalchemy.exc")
    if not isinstance(exc, sqlite3.Error) and not (sa_exc is not None and isinstance(exc, sa_exc.SQLAlchemyError)):
        return None
    text = _message(exc)
    if "disk is full" in text or "database or disk is full" in text:
        return "disk_full"
    if "readonly" in text or "read-only" in text or "query_only" in text:
        return "read_only"
    if "disk i/o error" in text:
        return "io"
    if "malformed" in text or "not a database" in text:
        return "damaged"
    if "locked" in text or "busy" in text:
        return "locked"
    return None


def describe(exc: BaseException) -> str | None:
    """A sentence for the user, or None when `exc` is not about the disk or the database file."""
    return {"disk_full": DISK_FULL, "read_only": READ_ONLY, "io": IO_ERROR, "damaged": DAMAGED,
            "locked": LOCKED}.get(classify(exc) or "")
