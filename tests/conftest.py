"""Shared fixtures: every test gets its own data directory and runs Qt offscreen."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The fuzz tests (hypothesis) draw the same examples on every run unless asked otherwise
# (STUDIO_FUZZ_RANDOM=1): a suite that passes once passes again, and a failure found by a
# random run is kept as an @example in the test.
try:
    from hypothesis import settings as _hypothesis_settings

    _hypothesis_settings.register_profile("studio", derandomize=not os.environ.get("STUDIO_FUZZ_RANDOM"),
                                          database=None)
    _hypothesis_settings.load_profile("studio")
except ImportError:
    pass


@pytest.fixture(autouse=True)
def studio_home(tmp_path, monkeypatch):
    """Point the app's data directory at a temporary folder for every test."""
    home = tmp_path / "studio-home"
    monkeypatch.setenv("STUDIO_HOME", str(home))
    return home


@pytest.fixture
def collection(studio_home):
    from studio.core.collection import Collection

    col = Collection.open()
    yield col
    col.close()


@pytest.fixture
def synced_collection(collection):
    """A collection with the shipped cards and notes loaded."""
    collection.sync_shipped_cards(force=True)
    collection.index_shipped_notes()
    return collection


@pytest.fixture
def studio_app(qtbot, studio_home):
    """The running app (window not shown) with its worker drained after the test."""
    from studio.core.collection import Collection
    from studio.core.settings import Settings
    from studio.ui.application import StudioApp

    col = Collection.open()
    col.sync_shipped_cards(force=True)
    col.index_shipped_notes()
    app = StudioApp(col, Settings(), language="en", theme_name="light")
    yield app
    qtbot.waitUntil(lambda: app.tasks.pending == 0, timeout=10000)
    close_app(app)


def close_app(app) -> None:
    """Stop the app's worker, then close and delete its window (a language switch may have
    replaced it) while no worker thread runs Python: deleting Qt objects with Python slots
    while another thread runs Python crashed PySide6 6.12 in our tests."""
    import shiboken6
    from PySide6.QtCore import QCoreApplication, QEvent

    app.shutdown()
    if shiboken6.isValid(app.window):
        app.window.close()
        app.window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)


def drain(qtbot, app, timeout: int = 10000) -> None:
    """Wait until the database worker has delivered every result."""
    qtbot.waitUntil(lambda: app.tasks.pending == 0, timeout=timeout)


def _cuda_toolkit_and_gpu() -> str | None:
    """None when CUDA C++ can be built and run here, else why not."""
    try:
        from studio.drills.languages.cuda import availability
        from studio.drills.languages.probe import facts
    except ImportError as exc:
        return str(exc)
    ready = availability(facts())
    return None if ready.ok else ready.message()


def pytest_collection_modifyitems(config, items):
    gpu_items = [item for item in items if "gpu" in item.keywords]
    if not gpu_items:
        return
    why = _cuda_toolkit_and_gpu()
    if why is None:
        return
    skip = pytest.mark.skip(reason=f"needs a GPU and a CUDA toolkit: {why}")
    for item in gpu_items:
        item.add_marker(skip)
