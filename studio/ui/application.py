"""Building the running app: Qt application, settings, translations, theme, database.

`StudioApp` owns the pieces the window needs and can rebuild the window when the user
switches language. A database that cannot be opened gets a clear dialog: a damaged or
vanished one offers, in this order, restoring the newest good backup, salvaging what can
be read, or opening it read-only; the user's file is never written to or overwritten.
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

from typing import TYPE_CHECKING

from studio import paths
from studio.core.settings import Settings
from studio.logsetup import setup_logging
from studio.ui import gui_gc, i18n, theme
from studio.ui.context import AppContext, Bus
from studio.ui.main_window import PANE_IDS, MainWindow
from studio.ui.tasks import TaskRunner, user_message

if TYPE_CHECKING:
    from studio.core import backups as bk
    from studio.core.collection import Collection
    from studio.core.db import DatabaseProblem

# The core's database modules (SQLAlchemy and the models: ~300 ms) are imported where used:
# the window is painted first and the database opened after (`run_gui`).

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
        "missing": QCoreApplication.translate("StudioApp", "The database file is missing or empty, but a collection existed here."),
        "read_only": QCoreApplication.translate("StudioApp", "The database or its folder cannot be written (read-only or no permission)."),
        "too_new": QCoreApplication.translate("StudioApp", "The database was written by a newer version of ML Infra Studio."),
    }.get(problem.kind, QCoreApplication.translate("StudioApp", "The database cannot be opened."))


def _inform(text: str, detail: str = "") -> None:
    box = QMessageBox(QMessageBox.Information, QCoreApplication.translate("StudioApp", "ML Infra Studio"), text)
    if detail:
        box.setDetailedText(detail)
    box.exec()


def recovery_box(problem: DatabaseProblem, good: bk.BackupInfo | None) -> tuple[QMessageBox, dict]:
    """The dialog for a database that cannot be opened, and its buttons by choice.

    For a damaged or vanished file the choices come best first: restore the newest good
    backup, salvage every readable row, open read-only; then start over (only when the
    file is gone) and quit.
    """
    from studio.core.db import DatabaseCorrupt, DatabaseMissing

    box = QMessageBox(QMessageBox.Warning, QCoreApplication.translate("StudioApp", "ML Infra Studio"), _problem_summary(problem))
    path = problem.path
    has_file = path.exists() and path.stat().st_size > 0
    info = QCoreApplication.translate("StudioApp", "Nothing has been written to it. Your file:") + f"\n{path}\n\n{problem.detail}"
    buttons: dict = {}
    if isinstance(problem, DatabaseCorrupt):
        if good is not None:
            label = QCoreApplication.translate("StudioApp", "Restore the backup of %1 (%2 cards, %3 reviews)")
            label = label.replace("%1", f"{good.created:%Y-%m-%d %H:%M}").replace("%2", str(good.cards)).replace(
                "%3", str(good.reviews))
            buttons["restore"] = box.addButton(label, QMessageBox.AcceptRole)
        else:
            info += "\n\n" + QCoreApplication.translate("StudioApp", "There is no verified backup to restore.")
        if has_file:
            buttons["salvage"] = box.addButton(QCoreApplication.translate("StudioApp", "Salvage what can be read"), QMessageBox.AcceptRole)
            buttons["read_only"] = box.addButton(QCoreApplication.translate("StudioApp", "Open read-only"), QMessageBox.AcceptRole)
        if isinstance(problem, DatabaseMissing):
            buttons["start_over"] = box.addButton(QCoreApplication.translate("StudioApp", "Start a new, empty collection"), QMessageBox.DestructiveRole)
    elif problem.kind == "read_only" and has_file:
        buttons["read_only"] = box.addButton(QCoreApplication.translate("StudioApp", "Open read-only"), QMessageBox.AcceptRole)
    elif problem.kind == "too_new":
        buttons["fresh"] = box.addButton(QCoreApplication.translate("StudioApp", "Open a fresh database"), QMessageBox.AcceptRole)
    buttons["quit"] = box.addButton(QCoreApplication.translate("StudioApp", "Quit"), QMessageBox.RejectRole)
    box.setInformativeText(info)
    return box, buttons


def recover(problem: DatabaseProblem, choice: str, good: bk.BackupInfo | None) -> Collection | None:
    """Carry out the user's choice from `recovery_box`; None to quit."""
    from studio.core import backups as bk
    from studio.core.collection import Collection

    path = problem.path
    if choice == "restore" and good is not None:
        info, kept = bk.restore_backup(path, paths.backups_dir(), good.id)
        _inform(QCoreApplication.translate("StudioApp", "The backup of %1 is restored.").replace("%1", f"{info.created:%Y-%m-%d %H:%M}"),
                QCoreApplication.translate("StudioApp", "The previous file is kept as:") + f"\n{kept}" if kept else "")
        return Collection.open()
    if choice == "salvage":
        report = bk.salvage_in_place(path)
        _inform(QCoreApplication.translate("StudioApp", "Salvage finished: %1 rows copied, %2 problems. The damaged file is kept beside it.")
                .replace("%1", str(report.copied)).replace("%2", str(len(report.problems()))), report.text())
        return Collection.open()
    if choice == "read_only":
        return Collection.open(read_only=True)
    if choice == "start_over":
        confirm = QMessageBox.question(None, QCoreApplication.translate("StudioApp", "ML Infra Studio"), QCoreApplication.translate("StudioApp", 
            "Start a new, empty collection? Your backups are kept and can still be restored from the File menu."))
        return Collection.open(start_over=True) if confirm == QMessageBox.Yes else None
    if choice == "fresh":
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return Collection.open(paths.data_dir() / f"studio-fresh-{stamp}.sqlite3")
    return None


def open_collection_interactive(interactive: bool) -> Collection | None:
    """Open the collection; on a problem ask the user (or report and give up).

    When the chosen way out fails (a backup that fails its check when restored, a full
    disk while salvaging), the user is told why and offered the choices again, with the
    failed backup no longer among them; only Quit leaves.
    """
    from studio.core import backups as bk
    from studio.core.collection import Collection
    from studio.core.db import DatabaseCorrupt, DatabaseProblem

    while True:
        try:
            return Collection.open()
        except DatabaseProblem as exc:
            problem = exc
        log.error("database problem: %s", problem)
        if not interactive:
            from studio.dbcli import explain_problem

            print(explain_problem(problem), file=sys.stderr)
            return None
        good = bk.newest_good(paths.backups_dir()) if isinstance(problem, DatabaseCorrupt) else None
        box, buttons = recovery_box(problem, good)
        box.exec()
        choice = next((k for k, b in buttons.items() if b is box.clickedButton()), "quit")
        if choice == "quit":
            return None
        try:
            col = recover(problem, choice, good)
        except (DatabaseProblem, bk.RestoreFailed, OSError) as exc:
            log.error("recovery (%s) failed: %s", choice, exc)
            QMessageBox.critical(None, QCoreApplication.translate("StudioApp", "ML Infra Studio"), str(exc))
            continue
        if col is not None:
            return col


class StudioApp:
    """The app's top-level pieces; rebuilds the window when the language changes."""

    def __init__(self, collection: Collection | None, settings: Settings, language: str | None = None,
                 theme_name: str | None = None):
        """`collection` None: the window is built and can be painted before the database is
        opened; `attach` hands it over (run_gui, run_smoke)."""
        self.qapp = ensure_qapp()
        # Before the worker runs any Python: cycles are collected on this thread only.
        gui_gc.install()
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

    def attach(self, collection: Collection) -> None:
        """The collection opened after the first paint: tasks queued meanwhile run now."""
        self.tasks.attach(collection)
        self.window.show_read_only_banner()

    def start_background_work(self) -> None:
        """Content sync and the daily backup run on the worker after the first paint."""

        from studio.core import backups as bk

        def work(col: Collection):
            backup_problem = ""
            try:
                col.daily_backup()
            except bk.BackupFailed as exc:
                log.error("daily backup: %s", exc)
                backup_problem = "damaged"
            except OSError as exc:
                log.error("daily backup: %s", exc)
                backup_problem = user_message(exc)
            changed = col.sync_shipped_cards()
            col.index_shipped_notes()
            return changed, backup_problem

        self.tasks.run(work, self._background_done)

    def _background_done(self, result) -> None:
        changed, backup_problem = result
        if changed:
            self.bus.data_changed.emit("cards")
        if backup_problem == "damaged":
            self.window.show_banner(QCoreApplication.translate("StudioApp", 
                "Today's backup failed its integrity check, so the database itself may be damaged. Your earlier backups are kept. Use File → Database → Check database, or restart the app to be offered a restore."))
        elif backup_problem:
            self.window.show_banner(QCoreApplication.translate("StudioApp", "Today's backup could not be made:") + " " + backup_problem)

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
        # Its Python-only Qt objects (pyqtgraph's menus) are garbage now: free them here,
        # on the GUI thread, not whenever the worker next allocates.
        gui_gc.collect_now()

    def set_theme(self, setting: str) -> None:
        self.settings.set("theme", setting)
        self.theme = theme.apply_theme(self.qapp, setting)

    def shutdown(self) -> None:
        self.tasks.shutdown()
        if self.tasks.collection is not None:
            self.tasks.collection.close()
        gui_gc.uninstall()  # the worker has stopped: no other thread can collect our widgets


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
    # The recovery dialog for a damaged database comes before the window: it must already
    # speak the user's language.
    i18n.install_translators(language or i18n.effective_language(settings.get("language")))
    col = open_collection_interactive(interactive)
    if col is None:
        return None
    return StudioApp(col, settings, language, theme_name)


def _boot_window(language=None, theme_name=None) -> StudioApp:
    """The window before the database: Today's frame is painted first (its figures show
    "–"), then `open_after_paint` opens the collection, importing SQLAlchemy and the models
    (~300 ms) only then. A damaged database's dialog comes up over the window."""
    setup_logging()
    ensure_qapp()
    return StudioApp(None, Settings(), language, theme_name)


def _paint_now(studio: StudioApp) -> None:
    """Show the window and paint it before anything else runs."""
    studio.window.show()
    studio.window.repaint()
    QApplication.processEvents()


def open_after_paint(studio: StudioApp, interactive: bool) -> bool:
    """Open the collection and hand it to the app; False when the user chose to quit (or,
    not interactive, the database could not be opened)."""
    col = open_collection_interactive(interactive)
    if col is None:
        return False
    studio.attach(col)
    return True


def _open_or_quit(studio: StudioApp) -> bool:
    """run_gui's step after the first paint: open the collection (asking the user about a
    damaged one), or, when that fails or the user quits, say why and end the event loop."""
    try:
        opened = open_after_paint(studio, interactive=True)
    except Exception as exc:  # noqa: BLE001 - a folder that cannot be read, a full disk: said, then quit
        log.exception("opening the collection failed")
        QMessageBox.critical(studio.window, QCoreApplication.translate("StudioApp", "ML Infra Studio"),
                             QCoreApplication.translate("StudioApp", "The database cannot be opened.")
                             + "\n\n" + str(exc))
        opened = False
    if not opened:
        studio.window.hide()
        studio.qapp.exit(2)
    return opened


def run_gui() -> int:
    studio = _boot_window()
    _paint_now(studio)

    def opened() -> None:
        if _open_or_quit(studio):
            studio.start_background_work()

    QTimer.singleShot(0, opened)
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
    studio.bus.data_changed.emit("cards")  # the status bar and Today count the cards just synced
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
    studio = _boot_window()          # as run_gui: the window first, the database after
    window = studio.window
    _paint_now(studio)
    painted = {"ms": (time.time() - t0_wall) * 1000}
    if not open_after_paint(studio, interactive=False):
        studio.shutdown()
        return _exit_now(2)
    _drain(studio)                   # Today's figures, asked for while the window was built
    window.repaint()
    painted["data_ms"] = (time.time() - t0_wall) * 1000
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
    print(f"today filled: {painted['data_ms']:.0f} ms")
    for pane_id in PANE_IDS:
        print(f"pane {pane_id}: ok" if pane_id in window.panes else f"pane {pane_id}: MISSING")
    studio.shutdown()
    if errors:
        print("errors:\n" + "\n".join(errors), file=sys.stderr)
        return _exit_now(1)
    return _exit_now(0)
