"""Where the app keeps its files.

Shipped, read-only files (content/, kernels/, resources/) sit beside the package in the
repository checkout. The user's state (database, backups, logs, drafts, caches) lives in
the platform's user data directory, or in $STUDIO_HOME when that is set, so tests and
portable installs never touch the real home directory.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "ml-infra-studio"
REPO_ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """The user's data directory, created on first use."""
    override = os.environ.get("STUDIO_HOME")
    if override:
        path = Path(override).expanduser()
    else:
        import platformdirs

        path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_path() -> Path:
    return data_dir() / "studio.sqlite3"


def backups_dir() -> Path:
    path = data_dir() / "backups"
    path.mkdir(parents=True, exist_ok=True)
    return path


def logs_dir() -> Path:
    path = data_dir() / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    path = data_dir() / "cache"
    path.mkdir(parents=True, exist_ok=True)
    return path


def content_dir() -> Path:
    return Path(os.environ.get("STUDIO_CONTENT", REPO_ROOT / "content"))


def kernels_dir() -> Path:
    return Path(os.environ.get("STUDIO_KERNELS", REPO_ROOT / "kernels"))


def resources_dir() -> Path:
    return REPO_ROOT / "resources"
