"""The main window: a navigation rail of panes, the roadmap tree (Notes' side panel), the
status bar and quick open.

The window opens on Today (Ctrl+0); Ctrl+1..6 open the other panes in the rail's order.
Panes are built the first time they are shown, so start-up pays only for Today. The
roadmap tree belongs to Notes; View → Roadmap tree (Ctrl+B) shows it beside any pane.
Window geometry is restored on start.
"""

from __future__ import annotations

from pathlib import Path

import importlib
import shutil
import subprocess

from PySide6.QtCore import QByteArray, QSize, Qt, QThread, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QHBoxLayout,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext
from studio.ui.roadmap_tree import RoadmapTree

PANES = (
    ("today", "studio.ui.panes.today_pane", "TodayPane"),
    ("notes", "studio.ui.panes.notes_pane", "NotesPane"),
    ("review", "studio.ui.panes.review_pane", "ReviewPane"),
    ("interviews", "studio.ui.panes.interviews_pane", "InterviewsPane"),
    ("drills", "studio.ui.panes.drills_pane", "DrillsPane"),
    ("bench", "studio.ui.panes.bench_pane", "BenchPane"),
    ("stats", "studio.ui.panes.stats_pane", "StatsPane"),
)
PANE_IDS = tuple(p[0] for p in PANES)
# Lucide icon names (resources/icons, ISC licence) of the navigation rail
PANE_ICONS = {"today": "sun", "notes": "book-open", "review": "layers", "interviews": "calendar-clock",
              "drills": "cpu", "bench": "gauge", "stats": "chart-column"}
RAIL_WIDTH = 88


def drill_device_name() -> str:
    """The GPU the drill child will use, found without importing torch in this process."""
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"],
                                 capture_output=True, text=True, timeout=5)
            name = out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else ""
            if name:
                return name
        except (OSError, subprocess.SubprocessError):
            pass
    return ""


class _DeviceProbe(QThread):
    found = Signal(str)

    def __init__(self, parent=None, settings=None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.where = ""   # "": this machine; else the SSH host the drills run on (drill_device_dialog)

    def run(self) -> None:
        try:
            if self.settings is None:
                self.found.emit(drill_device_name())
                return
            from studio.ui.drill_device_dialog import probe_target

            name, self.where = probe_target(self.settings)
            self.found.emit(name)
        except Exception:
            self.found.emit("")


LIVE_PROBES: set = set()   # device probes still running (see MainWindow.refresh_drill_device)


def _status_counts(col):
    """On the worker (the core's database modules load there, after the first paint)."""
    from studio.core.interviews import upcoming
    from studio.core.today import queue_counts

    return queue_counts(col), upcoming(col)


class MainWindow(QMainWindow):
    language_requested = Signal(str)
    theme_requested = Signal(str)

    def __init__(self, ctx: AppContext):
        super().__init__()
        self.ctx = ctx
        self.panes: dict[str, QWidget] = {}
        self.setWindowTitle(self.tr("ML Infra Studio — interview prep for ML systems"))
        from studio.ui.theme import app_icon, icon

        self.setWindowIcon(app_icon())
        self.resize(1280, 800)
        self.roadmap = RoadmapTree(ctx)
        self.roadmap.node_selected.connect(self._node_selected)
        self.sidebar = QListWidget()  # the navigation rail: an icon over each pane's name
        self.sidebar.setObjectName("rail")
        self.sidebar.setViewMode(QListView.IconMode)
        self.sidebar.setFlow(QListView.TopToBottom)
        self.sidebar.setMovement(QListView.Static)
        self.sidebar.setWrapping(False)
        self.sidebar.setUniformItemSizes(True)
        self.sidebar.setIconSize(QSize(22, 22))
        self.sidebar.setGridSize(QSize(RAIL_WIDTH - 8, 60))
        self.sidebar.setFixedWidth(RAIL_WIDTH)
        self.sidebar.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.sidebar.setFocusPolicy(Qt.NoFocus)
        self.pane_titles = {
            "today": self.tr("Today"), "notes": self.tr("Notes"), "review": self.tr("Review"),
            "interviews": self.tr("Interviews"), "drills": self.tr("Drills"), "bench": self.tr("Bench"),
            "stats": self.tr("Stats"),
        }
        for n, pane_id in enumerate(PANE_IDS):
            item = QListWidgetItem(icon(PANE_ICONS[pane_id]), self.pane_titles[pane_id])
            item.setTextAlignment(Qt.AlignHCenter | Qt.AlignTop)
            item.setSizeHint(QSize(RAIL_WIDTH - 8, 56))
            item.setToolTip(f"{self.pane_titles[pane_id]} (Ctrl+{n})")
            self.sidebar.addItem(item)
        self.stack = QStackedWidget()
        self.placeholders = {}
        for pane_id in PANE_IDS:
            holder = QWidget()
            self.placeholders[pane_id] = holder
            self.stack.addWidget(holder)
        self.sidebar.currentRowChanged.connect(self._sidebar_row)
        self.split = split = QSplitter()
        split.setChildrenCollapsible(False)
        split.addWidget(self.roadmap)
        split.addWidget(self.stack)
        split.setStretchFactor(1, 1)
        split.setSizes([300, 900])
        body = QWidget()
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.sidebar)
        row.addWidget(split, 1)
        self.banner = QLabel()  # read-only mode, a failed backup: what the user must know now
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        self.banner.hide()
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.banner)
        column.addWidget(body, 1)
        self.setCentralWidget(central)
        self.due_label = QLabel()
        self.device_label = QLabel()
        self.upcoming_label = QLabel()
        self.statusBar().addPermanentWidget(self.upcoming_label)
        self.statusBar().addPermanentWidget(self.due_label)
        self.statusBar().addPermanentWidget(self.device_label)
        self._actions()
        self._menus()
        ctx.bus.data_changed.connect(self._data_changed)
        # Slots are methods returning None: PySide6 mishandles values returned from lambda slots.
        ctx.bus.status_message.connect(self._status_message)
        ctx.bus.open_drill.connect(self._open_drill_pane)
        ctx.bus.open_pane.connect(self._open_pane)
        ctx.bus.review_scope.connect(self._open_review_pane)
        ctx.tasks.failed.connect(self._task_failed)
        ctx.tasks.damage_met.connect(self._damage_met)
        self.refresh_status()
        self.show_read_only_banner()
        self.refresh_drill_device()
        geometry = ctx.settings.get("geometry")
        if geometry:
            self.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        self.show_pane("today")  # the first question of the day is "what do I do now?"

    def _actions(self) -> None:
        for n, pane_id in enumerate(PANE_IDS):
            action = QAction(self)
            action.setShortcut(QKeySequence(f"Ctrl+{n}"))
            action.triggered.connect(lambda _=False, p=pane_id: self.show_pane(p))
            self.addAction(action)

    def _sidebar_row(self, row: int) -> None:
        self.show_pane(PANE_IDS[row])

    def _status_message(self, message: str) -> None:
        self.statusBar().showMessage(message, 8000)

    def _open_pane(self, pane_id: str) -> None:
        if pane_id in PANE_IDS:
            self.show_pane(pane_id)

    def _open_drill_pane(self, drill_id: str) -> None:
        created = "drills" not in self.panes
        pane = self.show_pane("drills")
        if created:  # the new pane was not yet listening when the drill was asked for
            pane.select_drill(drill_id)

    def _open_review_pane(self, scope) -> None:
        created = "review" not in self.panes
        pane = self.show_pane("review")
        if created:  # the new pane was not yet listening when the scope was sent
            pane.start(scope)

    def show_banner(self, text: str) -> None:
        self.banner.setText(text)
        self.banner.setVisible(bool(text))

    def show_read_only_banner(self) -> None:
        if self.ctx.collection is None:      # not opened yet: StudioApp.attach calls this again
            return
        if self.ctx.collection.read_only:
            self.show_banner(self.tr("Read-only: this database is damaged or cannot be written, so nothing you do is "
                                     "saved. Restore a backup from File → Database → Restore from backup…"))
        elif self.banner.isVisible() and self.banner.property("read_only_banner"):
            self.show_banner("")
        self.banner.setProperty("read_only_banner", self.ctx.collection.read_only)

    def _damage_met(self) -> None:
        """Damage found while working stays on screen, not only for a status-bar moment."""
        self.show_banner(self.tr("The database reported damage while working. Restart the app: it checks the file "
                                 "and offers to restore the newest good backup or salvage what can be read. Your "
                                 "backups are kept."))

    def _task_failed(self, message: str) -> None:
        self.statusBar().showMessage(self.tr("Error: %1").replace("%1", message), 15000)

    def _menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        file_menu.addAction(self.tr("Add notes folder…"), self.roadmap.add_notes_folder)
        file_menu.addAction(self.tr("Import notes…"), self.import_notes)
        file_menu.addAction(self.tr("Import Anki deck…"), self.import_anki)
        file_menu.addAction(self.tr("Open problem set…"), self.open_problem_set)
        from studio.ui.drill_device_dialog import menu_text

        file_menu.addAction(menu_text(), self.drill_device_settings)
        file_menu.addSeparator()
        database = file_menu.addMenu(self.tr("Database"))
        database.addAction(self.tr("Restore from backup…"), self.restore_from_backup)
        database.addAction(self.tr("Back up now"), self.back_up_now)
        database.addAction(self.tr("Check database"), self.check_database)
        view = self.menuBar().addMenu(self.tr("&View"))
        self.roadmap_action = view.addAction(self.tr("Roadmap tree"))
        self.roadmap_action.setCheckable(True)
        self.roadmap_action.setShortcut(QKeySequence("Ctrl+B"))
        self.roadmap_action.toggled.connect(self._roadmap_toggled)
        view.addSeparator()
        language = view.addMenu(self.tr("Language"))
        for key, label in (("system", self.tr("System")), ("en", "English"), ("zh_CN", "中文")):
            action = language.addAction(label)
            action.setCheckable(True)
            action.setChecked(self.ctx.settings.get("language") == key)
            action.triggered.connect(lambda _=False, k=key: self.language_requested.emit(k))
        themes = view.addMenu(self.tr("Theme"))
        for key, label in (("system", self.tr("System")), ("light", self.tr("Light")), ("dark", self.tr("Dark"))):
            action = themes.addAction(label)
            action.setCheckable(True)
            action.setChecked(self.ctx.settings.get("theme") == key)
            action.triggered.connect(lambda _=False, k=key: self.theme_requested.emit(k))
        go = self.menuBar().addMenu(self.tr("&Go"))
        quick = go.addAction(self.tr("Quick open…"))
        quick.setShortcut(QKeySequence("Ctrl+K"))
        quick.triggered.connect(self.quick_open)

    # --- panes -------------------------------------------------------------------------
    def pane(self, pane_id: str) -> QWidget:
        """The pane widget, built on first use."""
        if pane_id not in self.panes:
            _, module, cls = next(p for p in PANES if p[0] == pane_id)
            widget = getattr(importlib.import_module(module), cls)(self.ctx)
            index = self.stack.indexOf(self.placeholders[pane_id])
            self.stack.removeWidget(self.placeholders[pane_id])
            self.stack.insertWidget(index, widget)
            self.panes[pane_id] = widget
        return self.panes[pane_id]

    def current_pane_id(self) -> str:
        return PANE_IDS[self.sidebar.currentRow()] if self.sidebar.currentRow() >= 0 else "today"

    def roadmap_wanted(self, pane_id: str) -> bool:
        """The tree is Notes' side panel; elsewhere only when the user asked for it (Ctrl+B)."""
        shown = self.ctx.settings.values.get("roadmap_panes") or {}
        return bool(shown.get(pane_id, pane_id == "notes"))

    def _roadmap_toggled(self, on: bool) -> None:
        pane_id = self.current_pane_id()
        shown = dict(self.ctx.settings.values.get("roadmap_panes") or {})
        shown[pane_id] = bool(on)
        self.ctx.settings.values["roadmap_panes"] = shown
        self.roadmap.setVisible(on)

    def show_pane(self, pane_id: str) -> QWidget:
        widget = self.pane(pane_id)
        self.stack.setCurrentWidget(widget)
        row = PANE_IDS.index(pane_id)
        if self.sidebar.currentRow() != row:
            self.sidebar.blockSignals(True)
            self.sidebar.setCurrentRow(row)
            self.sidebar.blockSignals(False)
        wanted = self.roadmap_wanted(pane_id)
        self.roadmap.setVisible(wanted)
        if hasattr(self, "roadmap_action"):
            self.roadmap_action.blockSignals(True)
            self.roadmap_action.setChecked(wanted)
            self.roadmap_action.blockSignals(False)
        refresh = getattr(widget, "refresh", None)
        if callable(refresh):
            refresh()
        self.ctx.settings.values["last_pane"] = pane_id
        return widget

    def _node_selected(self, node_id: str) -> None:
        self.pane("notes")
        self.ctx.bus.node_selected.emit(node_id)
        if self.current_pane_id() != "notes":
            self.show_pane("notes")

    def quick_open(self) -> None:
        from studio.ui.quick_open import QuickOpen

        dialog = QuickOpen(self.ctx, self, panes=self.pane_titles)
        dialog.exec()
        dialog.deleteLater()  # a search still running answers into nothing (TaskRunner checks)

    def import_notes(self) -> None:
        from studio.ui.import_dialog import ImportDialog

        ImportDialog(self.ctx, "notes", self).exec()

    def import_anki(self) -> None:
        from studio.ui.import_dialog import ImportDialog

        ImportDialog(self.ctx, "anki", self).exec()

    def open_problem_set(self) -> None:
        """A folder of drills, or a clone of GPU MODE's reference-kernels or LeetGPU's challenges."""
        from PySide6.QtWidgets import QFileDialog

        folder = QFileDialog.getExistingDirectory(self, self.tr("Open problem set"))
        if folder:
            self.show_pane("drills").add_pack(Path(folder))

    def restore_from_backup(self) -> None:
        from studio.ui.backup_dialog import BackupDialog

        dialog = BackupDialog(self.ctx, self)
        dialog.restored.connect(self._restored)
        dialog.exec()
        dialog.deleteLater()

    def _restored(self, _backup_id: str) -> None:
        self.show_read_only_banner()

    def back_up_now(self) -> None:
        from studio import paths
        from studio.core.backups import make_backup

        self.ctx.tasks.run(lambda col: make_backup(col.db.path, paths.backups_dir(), reason="manual"),
                           self._backed_up)

    def _backed_up(self, info) -> None:
        self.statusBar().showMessage(self.tr("Backup made and checked: %1 cards, %2 reviews")
                                     .replace("%1", str(info.cards)).replace("%2", str(info.reviews)), 10000)

    def check_database(self) -> None:
        from studio.core.dbcheck import run_check

        self.statusBar().showMessage(self.tr("Checking the database…"))
        self.ctx.tasks.run(lambda col: run_check(col.db.path, full=True, budget_s=None), self._checked)

    def _checked(self, result) -> None:
        if result.ok:
            self.statusBar().showMessage(self.tr("Database check: ok (%1 s)").replace("%1", f"{result.seconds:.1f}"), 10000)
            return
        QMessageBox.warning(self, self.tr("Database check"), self.tr(
            "The database is damaged. Restore a backup (File → Database → Restore from backup…), or quit and "
            "start the app again to salvage it.") + "\n\n" + "\n".join(result.problems[:5]))
        self.statusBar().clearMessage()

    # --- status bar --------------------------------------------------------------------
    def refresh_status(self) -> None:
        self.ctx.tasks.run(_status_counts, self._status_loaded)

    def _status_loaded(self, result) -> None:
        counts, events = result  # the review queue's own counts: Today and the review header show the same
        self.due_label.setText(self.tr("Due: new %1 · learning %2 · review %3")
                               .replace("%1", str(counts["new"])).replace("%2", str(counts["learning"]))
                               .replace("%3", str(counts["review"])))
        if events:
            from datetime import timezone

            when, kind, row = events[0]
            local = when.replace(tzinfo=timezone.utc).astimezone().strftime("%m-%d %H:%M")
            what = row.round if kind == "interview" else row.next_step
            self.upcoming_label.setText(self.tr("Next: %1 %2 %3 (%4 this week)").replace("%1", local)
                                        .replace("%2", row.company).replace("%3", what or "")
                                        .replace("%4", str(len(events))))
        else:
            self.upcoming_label.setText("")

    def refresh_drill_device(self) -> None:
        """Find the drill device again (at start, and after File → Drill device…).

        The probe has no parent and is held in LIVE_PROBES until it ends: asking an SSH host
        can take seconds, and a window closed or replaced meanwhile must not destroy a running
        thread."""
        self.device_label.setText(self.tr("Drill device: checking…"))
        self._probe = _DeviceProbe(None, self.ctx.settings)
        self._probe.found.connect(self._device_found)
        self._probe.finished.connect(self._forget_probes)   # a window method: runs in the GUI thread
        LIVE_PROBES.add(self._probe)
        self._probe.start()

    def _forget_probes(self) -> None:
        for probe in [p for p in LIVE_PROBES if p.isFinished()]:
            probe.wait()
            LIVE_PROBES.discard(probe)

    def drill_device_settings(self) -> None:
        from studio.ui.drill_device_dialog import DrillDeviceDialog

        if DrillDeviceDialog(self.ctx, self).exec():
            self.refresh_drill_device()

    def _device_found(self, name: str) -> None:
        if self.sender() is not None and self.sender() is not self._probe:
            return          # an earlier probe, overtaken by a change of device
        self.ctx.drill_device = name
        self.ctx.bus.drill_device.emit(name)
        text = self.tr("Drill device: %1").replace("%1", name or self.tr("CPU interpreter"))
        where = getattr(self._probe, "where", "")
        self.device_label.setText(f"{text} — {where}" if where else text)

    def _data_changed(self, what: str) -> None:
        if what in ("reviews", "cards", "interviews"):
            self.refresh_status()
        if what in ("reviews", "cards", "progress"):
            self.roadmap.reload()

    def closeEvent(self, event) -> None:
        for running in ("drills", "bench"):
            pane = self.panes.get(running)
            if pane is not None:
                pane.shutdown()
        self.ctx.settings.values["geometry"] = bytes(self.saveGeometry().toBase64()).decode()
        self.ctx.settings.save()
        if self._probe.isRunning():
            self._probe.wait(2000)
        super().closeEvent(event)


__all__ = ["MainWindow", "PANE_IDS"]
