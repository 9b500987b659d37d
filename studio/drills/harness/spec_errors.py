"""The error a problem's own files raise (a bench spec, later other problem sources).

Kept apart from the loaders so the judge can catch it without importing torch first.
"""

from __future__ import annotations


class SpecError(Exception):
    """A problem file that cannot be used; names the file and, when known, the line."""

    def __init__(self, message: str, file: str, line: int | None = None, tb: str | None = None):
        self.file, self.line, self.tb = file, line, tb
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}")
        self.message = message
