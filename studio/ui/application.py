"""Building the running app: Qt application, settings, translations, theme, database.

`StudioApp` owns the pieces the window needs and can rebuild the window when the user
switches language. A database that cannot be opened (locked, damaged, newer) gets a
clear dialog offering a fresh database; the user's file is never overwritten.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from studio import paths
from studio.core.collection import Collection
from studio.core.db import DatabaseCorrupt, DatabaseProblem, set_aside
from studio.core.settings import Settings
from studio.logsetup import setup_logging
from studio.ui import i18n, theme
from studio.ui.context import AppContext, Bus
from studio.ui.main_window import PANE_IDS, MainWindow
from studio.ui.tasks import TaskRunner

log = logging.getLogger(__name__)


def ensure_qapp() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("ML Infra Studio")
        app.setOrganizationName("ml-infra-studio")
    return app


def _problem_summary(problem: DatabaseProblem) -> str:
    return {
        "locked": QCoreApplication.translate("StudioApp", "The database is locked by another program (is ML Infra Studio already running?)."),
        "corrupt": QCoreApplication.translate("StudioApp", "The database file is damaged or is not a database."),
        "too_new": QCoreApplication.translate("StudioApp", "The database was written by a newer version of ML Infra Studio."),
    }.get(problem.kind, QCoreApplication.translate("StudioApp", "The database cannot be opened."))


def open_collection_interactive(interactive: bool) -> Collection | None:
    """Open the collection; on a problem ask the user (or report and give up)."""
    try:
        return Collection.open()
    except DatabaseProblem as problem:
        log.error("database problem: %s", problem)
        if not interactive:
            print(f"error: {problem.summary()} ({problem.path}): {problem.detail}", file=sys.stderr)
            return None
        box = QMessageBox(QMessageBox.Warning, QCoreApplication.translate("StudioApp", "ML Infra Studio"), _problem_summary(problem))
        box.setInformativeText(QCoreApplication.translate("StudioApp", "Your file is kept as it is:") + f"\n{problem.path}\n\n{problem.detail}")
        fresh = box.addButton(QCoreApplication.translate("StudioApp", "Open a fresh database"), QMessageBox.AcceptRole)
        box.addButton(QCoreApplication.translate("StudioApp", "Quit"), QMessageBox.RejectRole)
        box.exec()
        if box.clickedButton() is not fresh:
            return None
        if isinstance(problem, DatabaseCorrupt):
            kept = set_aside(problem.path)
            log.warning("damaged database kept as %s", kept)
            return Collection.open()
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return Collection.open(paths.data_dir() / f"studio-fresh-{stamp}.sqlite3")


class StudioApp:
    """The app's top-level pieces; rebuilds the window when the language changes."""

    def __init__(self, collection: Collection, settings: Settings, language: str | None = None,
                 theme_name: str | None = None):
        self.qapp = ensure_qapp()
        self.settings = settings
        self.tasks = TaskRunner(collection)
        self.bus = Bus()
        self.theme = theme.apply_theme(self.qapp, theme_name or settings.get("theme"))
        self.language = language or i18n.effective_language(settings.get("language"))
        i18n.install_translators(self.language)
        self.window = self._build_window()

    def _build_window(self) -> MainWindow:
        ctx = AppContext(tasks=self.tasks, settings=self.settings, language=self.language, bus=self.bus)
        window = MainWindow(ctx)
        window.language_requested.connect(self.set_language)
        window.theme_requested.connect(self.set_theme)
        return window

    def start_background_work(self) -> None:
        """Content sync and the daily backup run on the worker after the first paint."""

        def work(col: Collection):
            col.daily_backup()
            changed = col.sync_shipped_cards()
            col.index_shipped_notes()
            return changed

        self.tasks.run(work, lambda changed: changed and self.bus.data_changed.emit("cards"))

    def set_language(self, setting: str) -> None:
        self.settings.set("language", setting)
        language = i18n.effective_language(setting)
        if language == self.language:
            return
        self.language = language
        i18n.install_translators(language)
        old = self.window
        pane = old.current_pane_id()
        geometry = old.saveGeometry()
        visible = old.isVisible()
        old.close()
        self._retire_window(old)
        self.bus = Bus()
        self.window = self._build_window()
        self.window.restoreGeometry(geometry)
        self.window.show_pane(pane)
        if visible:
            self.window.show()

    def _retire_window(self, window) -> None:
        """Delete a window only once the worker is idle and its answers are delivered.

        Deleting Qt objects that hold Python slots while the worker thread runs Python
        crashed PySide6 6.12, and late answers must not reach a deleted window.
        """
        self.tasks.wait_idle()
        QCoreApplication.processEvents()
        window.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)

    def set_theme(self, setting: str) -> None:
        self.settings.set("theme", setting)
        self.theme = theme.apply_theme(self.qapp, setting)

    def shutdown(self) -> None:
        self.tasks.shutdown()
        self.tasks.collection.close()


def _exit_now(code: int) -> int:
    """Leave the process once everything is saved and closed.

    Python's final garbage collection can crash inside PySide6 when Qt objects with
    Python slots are still alive (seen with PySide6 6.12 at interpreter shutdown), so
    after a clean shutdown (database closed, settings and logs flushed) the GUI
    commands end the process directly.
    """
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _boot(interactive: bool, language=None, theme_name=None) -> StudioApp | None:
    setup_logging()
    ensure_qapp()
    settings = Settings()
    col = open_collection_interactive(interactive)
    if col is None:
        return None
    return StudioApp(col, settings, language, theme_name)


def run_gui() -> int:
    studio = _boot(interactive=True)
    if studio is None:
        return 2
    studio.window.show()
    QTimer.singleShot(0, studio.start_background_work)
    code = studio.qapp.exec()
    studio.shutdown()
    return _exit_now(code)


def _drain(studio: StudioApp, timeout_s: float = 30.0) -> None:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        QApplication.processEvents()
        if studio.tasks.pending == 0:
            QApplication.processEvents()
            if studio.tasks.pending == 0:
                return
        time.sleep(0.005)


def run_screenshot(out_dir: str, lang: str, theme_name: str) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    studio = _boot(interactive=False, language=lang, theme_name=theme_name)
    if studio is None:
        return 2
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    studio.tasks.call(lambda col: (col.sync_shipped_cards(), col.index_shipped_notes()))
    window = studio.window
    window.resize(1400, 860)
    window.show()
    _drain(studio)
    roadmap = studio.tasks.collection.roadmap
    if roadmap is not None and roadmap.areas:
        first = roadmap.areas[0].children[0] if roadmap.areas[0].children else roadmap.areas[0]
        window.roadmap.tree.setCurrentItem(window.roadmap.items.get(first.id))
        window.roadmap.tree.expandItem(window.roadmap.items.get(roadmap.areas[0].id))
    for pane_id in PANE_IDS:
        window.show_pane(pane_id)
        _drain(studio)
        window.grab().save(str(out / f"{pane_id}.png"))
        print(out / f"{pane_id}.png")
    studio.shutdown()
    return _exit_now(0)


def run_smoke(t0_wall: float) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    studio = _boot(interactive=False)
    if studio is None:
        return 2
    window = studio.window
    painted = {}

    def first_paint():
        painted["ms"] = (time.time() - t0_wall) * 1000

    window.show()
    window.repaint()
    QApplication.processEvents()
    first_paint()
    errors: list[str] = []
    old_hook = sys.excepthook
    sys.excepthook = lambda *exc: errors.append("".join(__import__("traceback").format_exception(*exc)))
    studio.tasks.failed.connect(errors.append)
    try:
        studio.start_background_work()
        for pane_id in PANE_IDS:
            window.show_pane(pane_id)
            _drain(studio)
            window.grab()
    finally:
        sys.excepthook = old_hook
    print(f"first paint: {painted['ms']:.0f} ms")
    for pane_id in PANE_IDS:
        print(f"pane {pane_id}: ok" if pane_id in window.panes else f"pane {pane_id}: MISSING")
    studio.shutdown()
    if errors:
        print("errors:\n" + "\n".join(errors), file=sys.stderr)
        return _exit_now(1)
    return _exit_now(0)
