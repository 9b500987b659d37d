"""Logging to a rotating file in the data directory (and warnings to stderr)."""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler

from studio import paths


def setup_logging(level: int = logging.INFO) -> None:
    root = logging.getLogger()
    if any(isinstance(h, RotatingFileHandler) for h in root.handlers):
        return
    try:
        handler = RotatingFileHandler(
            paths.logs_dir() / "studio.log", maxBytes=1_000_000, backupCount=5, encoding="utf-8"
        )
    except OSError as exc:  # a read-only or full data folder: log to stderr, keep going
        handler = logging.StreamHandler()
        logging.getLogger(__name__).warning("cannot write the log file: %s", exc)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)
