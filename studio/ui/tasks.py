"""The single database worker: every collection call from the GUI runs here.

As in Anki's task manager, one background thread owns the collection, so writes are
serialised and the GUI never blocks on SQLite. Callers pass a function of the
collection plus callbacks; results come back on the GUI thread through a queued
signal. Failures are logged and reported through `failed`, never as a traceback dialog.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Signal

from studio.core import errors
from studio.core.dbstate import request_check

if TYPE_CHECKING:
    from studio.core.collection import Collection

log = logging.getLogger(__name__)


def user_message(exc: BaseException) -> str:
    """One translated sentence for a full disk, a read-only folder or a damaged file; else the error."""
    kind = errors.classify(exc)
    if kind == "disk_full":
        return QCoreApplication.translate("Tasks", "The disk is full: nothing from this action was saved, and what was there before is kept. Free some space and try again.")
    if kind == "read_only":
        return QCoreApplication.translate("Tasks", "The database cannot be written (read-only, or no permission): nothing from this action was saved. You can keep reading.")
    if kind == "io":
        return QCoreApplication.translate("Tasks", "The disk reported an error while saving: nothing from this action was saved. If it happens again, use File → Database → Check database.")
    if kind == "damaged":
        return QCoreApplication.translate("Tasks", "The database reported damage. Restart the app to check it and restore a backup or salvage it.")
    if kind == "locked":
        return QCoreApplication.translate("Tasks", "The database is busy (another program is writing to it); try again in a moment.")
    return str(exc)


def _alive(callback) -> bool:
    """False when the callback is a method of a Qt object that has since been deleted."""
    owner = getattr(callback, "__self__", None)
    return not isinstance(owner, QObject) or shiboken6.isValid(owner)


class TaskRunner(QObject):
    # Results cross threads as an integer key into `_outbox`, never as Python objects in the
    # signal: queued `object` arguments were seen to corrupt reference counts in PySide6 6.12
    # (crashes in bool_dealloc / segfaults at exit).
    _finished = Signal(int)
    failed = Signal(str)
    damage_met = Signal()  # SQLite called the file damaged while working: say so until restart
    busy_changed = Signal(bool)

    def __init__(self, collection: Collection | None, parent: QObject | None = None):
        """`collection` may come later (`attach`): the window is painted before the database
        is opened, and tasks asked for meanwhile wait on the worker until it is."""
        super().__init__(parent)
        self.collection = collection
        self._attached = threading.Event()
        if collection is not None:
            self._attached.set()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="studio-db")
        self._pending = 0
        self._closed = False
        self._lock = threading.Lock()
        self._outbox: dict[int, tuple] = {}
        self._next_key = 0
        self._finished.connect(self._deliver)

    def run(
        self,
        fn: Callable[[Collection], Any],
        on_success: Callable[[Any], None] | None = None,
        on_failure: Callable[[Exception], None] | None = None,
    ) -> Future:
        """Run `fn(collection)` on the worker; call back on the GUI thread.

        After shutdown (the window is closing) late requests are dropped and logged.
        """
        if self._closed:
            log.info("task dropped after shutdown: %r", fn)
            done: Future = Future()
            done.set_result(None)
            return done
        with self._lock:
            self._pending += 1

        def job():
            self._attached.wait()
            if self.collection is None:      # shut down before the database was opened
                return None
            try:
                result, error = fn(self.collection), None
            except Exception as exc:  # reported to the caller, never raised into Qt
                log.exception("task failed")
                result, error = None, exc
                if errors.classify(exc) == "damaged":
                    request_check(self.collection.db.path)
                    self.damage_met.emit()
            with self._lock:
                key = self._next_key
                self._next_key += 1
                self._outbox[key] = (on_success, on_failure, result, error)
            self._finished.emit(key)
            return result

        return self._executor.submit(job)

    def _deliver(self, key: int) -> None:
        with self._lock:
            self._pending -= 1
            on_success, on_failure, result, error = self._outbox.pop(key)
        if not (_alive(on_success) and _alive(on_failure)):
            log.info("answer dropped: its widget was closed while the task ran")
            return
        if error is not None:
            if on_failure is not None:
                on_failure(error)
            else:
                self.failed.emit(user_message(error))
            return
        if on_success is not None:
            on_success(result)

    @property
    def pending(self) -> int:
        with self._lock:
            return self._pending

    def attach(self, collection: Collection) -> None:
        """The collection, opened after the window was painted: queued tasks run now."""
        self.collection = collection
        self._attached.set()

    @property
    def attached(self) -> bool:
        return self._attached.is_set() and self.collection is not None

    def call(self, fn: Callable[[Collection], Any]) -> Any:
        """Run `fn` on the worker and wait for it (for shutdown paths and scripts)."""
        def job():
            self._attached.wait()
            return fn(self.collection)

        return self._executor.submit(job).result()

    def reopen(self, change: Callable, on_success=None, on_failure=None) -> Future:
        """On the worker: close the collection, run `change(db_path)`, open it again.

        For restoring a backup while the app runs. If the file cannot be opened
        afterwards the collection comes back read-only, so the window still reads.
        """
        from studio.core.collection import Collection

        def fn(col: Collection):
            path, read_only = col.db.path, col.read_only
            col.close()
            changed = False
            try:
                result = change(path)
                changed = True
                return result
            finally:
                try:  # after a restore the file is whole again: open it for writing
                    self.collection = Collection.open(path, read_only=read_only and not changed)
                except Exception:
                    log.exception("reopening %s after a change failed; opening read-only", path)
                    self.collection = Collection.open(path, read_only=True)

        return self.run(fn, on_success, on_failure)

    def wait_idle(self) -> None:
        """Block until every task submitted so far has run (their callbacks are queued)."""
        if not self._closed and self._attached.is_set():
            self._executor.submit(lambda: None).result()

    def shutdown(self) -> None:
        self._closed = True
        self._attached.set()       # tasks still waiting for a collection that never came end now
        self._executor.shutdown(wait=True)
