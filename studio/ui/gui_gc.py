"""Python's cyclic garbage collection, run on the GUI thread only.

Python collects reference cycles in whichever thread happens to allocate when a
generation's threshold is crossed. Some Qt objects are owned by Python alone and live
in cycles: pyqtgraph's plot and view-box menus (with their line edits, spin boxes and
combo boxes) are parentless QMenus. When a window is deleted (a language switch, a test
closing its app) those menus become garbage; if the database worker or a drill thread
then triggers a collection, their C++ destructors run on that thread while the GUI
thread still dispatches their timers and events, and the process segfaults in
QCoreApplication::notifyInternal2 (seen with PySide6 6.12: tests/ui/test_drills_pane.py
crashed in its second test while the worker parsed the roadmap).

So, as Anki does (aqt's GarbageCollector, after a recipe from the PyQt list), automatic
collection is turned off and a timer on the GUI thread runs the generations whose
thresholds were crossed; `collect_now()` runs a full collection at once, for a window
that has just been deleted. Plain reference counting still frees acyclic objects
immediately, wherever the last reference goes.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer

INTERVAL_MS = 1000


class GuiGarbageCollector(QObject):
    def __init__(self, parent: QObject):
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> int:
        """Collect the generations whose thresholds were crossed since the last tick."""
        counts = gc.get_count()
        collected = 0
        if counts[0] > self.threshold[0]:
            generation = 0
            if counts[1] > self.threshold[1]:
                generation = 1
                if counts[2] > self.threshold[2]:
                    generation = 2
            collected = gc.collect(generation)
        return collected


_collector: GuiGarbageCollector | None = None


def install() -> GuiGarbageCollector:
    """Turn automatic collection off and collect on the GUI thread (idempotent per process).

    Call on the GUI thread once the QApplication exists, before any worker thread runs Python.
    """
    global _collector
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("install() needs a QApplication")
    if QThread.currentThread() is not app.thread():
        raise RuntimeError("install() must run on the GUI thread")
    if _collector is None:  # the first app of the process: nothing of ours to free yet
        _collector = GuiGarbageCollector(app)
    else:  # an app after an earlier one (tests): free the earlier one's leftovers here
        gc.disable()
        _collector.timer.start()
        collect_now()
    return _collector


def uninstall() -> None:
    """Automatic collection back on, once no other thread of the app runs Python (shutdown)."""
    if _collector is not None:
        _collector.timer.stop()
    gc.enable()


def collect_now() -> int:
    """A full collection on the calling (GUI) thread, e.g. right after deleting a window."""
    return gc.collect()
