"""Reference cycles holding Qt objects are collected on the GUI thread, never on a worker."""

from __future__ import annotations

import gc
import threading
import weakref


def _orphan_cycle():
    """A parentless QMenu kept only by a reference cycle (as pyqtgraph's plot menus are)."""
    from PySide6.QtWidgets import QMenu

    class Holder:
        pass

    holder = Holder()
    holder.menu = QMenu()
    holder.self = holder
    return weakref.ref(holder.menu)


def test_worker_allocations_do_not_collect_qt_cycles(qtbot):
    from studio.ui import gui_gc

    gui_gc.install()
    assert not gc.isenabled()
    menu = _orphan_cycle()
    assert menu() is not None

    def allocate():  # far past the generation-0 threshold, as the worker's YAML parse is
        junk = []
        for _ in range(50_000):
            junk.append([[]])

    worker = threading.Thread(target=allocate)
    worker.start()
    worker.join()
    assert menu() is not None, "a worker thread's allocations collected a Qt object"
    gui_gc.collect_now()
    assert menu() is None


def test_the_gui_timer_collects_once_thresholds_are_crossed(qtbot):
    from studio.ui import gui_gc

    collector = gui_gc.install()
    menu = _orphan_cycle()
    junk = [[[]] for _ in range(3 * gc.get_threshold()[0])]  # generation 0 over its threshold
    qtbot.waitUntil(lambda: menu() is None, timeout=3 * gui_gc.INTERVAL_MS)
    assert collector.timer.isActive()
    del junk


def test_the_app_installs_it_before_its_worker(studio_app):
    assert not gc.isenabled()


def test_shutdown_turns_automatic_collection_back_on(studio_app):
    studio_app.shutdown()
    assert gc.isenabled()
