"""The roadmap tree on the left: nodes, their state, subtree progress and due cards.

Below the roadmap, "My notes" lists the user's registered note folders; their folders
are watched so new, changed and deleted files show up without a restart.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.roadmap import STATES
from studio.ui.context import AppContext
from studio.ui.theme import qcolor

STATE_MARKS = {"pending": "○", "learning": "◐", "done": "●", "skipped": "⊘"}
STATE_COLORS = {"pending": None, "learning": "state_learning", "done": "state_done", "skipped": "state_skipped"}
NODE_ROLE = Qt.UserRole + 1
NOTE_ROLE = Qt.UserRole + 2  # a user note's file path
FOLDER_ROLE = Qt.UserRole + 3  # a registered folder's id


def _scan_all(col, progress):
    from studio.core.notes import list_folders, scan_all_folders

    report = scan_all_folders(col, progress)
    return report, list_folders(col)


def _add_and_scan(col, folder: str, progress):
    from studio.core.notes import list_folders, register_folder, scan_folder

    report = scan_folder(col, register_folder(col, folder), progress)
    return report, list_folders(col)


class RoadmapTree(QWidget):
    """Selecting a node or a user note emits `node_selected` with the node id or file path."""

    node_selected = Signal(str)
    scan_progress = Signal(int, int)  # emitted from the worker, delivered queued

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.states: dict[str, str] = {}
        self.due: dict[str, int] = {}
        self.items: dict[str, QTreeWidgetItem] = {}
        self.roadmap = None
        self.folders: list = []
        self.notes_root: QTreeWidgetItem | None = None
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(lambda _path: self._rescan_timer.start())
        self._rescan_timer = QTimer(self, singleShot=True, interval=600)
        self._rescan_timer.timeout.connect(self.rescan_folders)
        self.progress = QProgressBar()
        self.progress.setFormat(self.tr("Indexing notes… %v of %m"))
        self.progress.hide()
        self.scan_progress.connect(self._on_progress)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.header = QLabel()
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(self.tr("Filter roadmap…"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.apply_filter)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Roadmap"), self.tr("Progress"), self.tr("Due")])
        self.tree.setColumnWidth(0, 196)
        self.tree.setColumnWidth(1, 60)
        self.tree.setColumnWidth(2, 40)
        self.tree.setContextMenuPolicy(Qt.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.tree.currentItemChanged.connect(self._current_changed)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.header)
        layout.addWidget(self.filter)
        layout.addWidget(self.error)
        layout.addWidget(self.progress)
        layout.addWidget(self.tree)
        for key, state in (("1", "pending"), ("2", "learning"), ("3", "done"), ("4", "skipped")):
            action = QAction(self)
            action.setShortcut(QKeySequence(f"Alt+{key}"))
            action.setShortcutContext(Qt.WidgetWithChildrenShortcut)
            action.triggered.connect(lambda _=False, st=state: self.set_state_current(st))
            self.tree.addAction(action)
        self.reload()
        self.rescan_folders()

    # --- data --------------------------------------------------------------------------
    def reload(self) -> None:
        from studio.core.roadmap import node_due_counts

        self.ctx.tasks.run(lambda col: (col.roadmap, col.status.roadmap_error, col.node_states(),
                                        node_due_counts(col)), self._loaded)

    def _loaded(self, result) -> None:
        roadmap, error, states, due = result
        self.states, self.due = states, due
        if roadmap is None:
            self.error.setText(self.tr("The roadmap could not be loaded:") + "\n" + error)
            self.error.show()
            return
        self.error.hide()
        self.roadmap = roadmap
        current = self.current_node_id()
        expanded = {node_id for node_id, item in self.items.items() if item.isExpanded()}
        self.tree.clear()
        self.items.clear()
        self.notes_root = None
        lang = self.ctx.content_lang
        for area in roadmap.areas:
            self.tree.addTopLevelItem(self._make_item(area, lang))
        for node_id in expanded & set(self.items):
            self.items[node_id].setExpanded(True)
        self.refresh_marks()
        self._fill_notes()
        self.apply_filter(self.filter.text())
        if current and current in self.items:
            self.tree.setCurrentItem(self.items[current])

    def _make_item(self, node, lang: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem([node.title(lang), "", ""])
        item.setData(0, NODE_ROLE, node.id)
        item.setToolTip(0, node.summary(lang))
        self.items[node.id] = item
        for child in node.children:
            item.addChild(self._make_item(child, lang))
        return item

    def refresh_marks(self) -> None:
        lang = self.ctx.content_lang
        for node_id, item in self.items.items():
            node = self.roadmap.nodes[node_id]
            state = self.states.get(node_id, "pending")
            item.setText(0, f"{STATE_MARKS[state]} {node.title(lang)}")
            color = STATE_COLORS[state]
            item.setForeground(0, QBrush(qcolor(color)) if color else QBrush())
            finished, total = self.roadmap.progress(node_id, self.states)
            item.setText(1, f"{round(100 * finished / total)}%" if node.children else "")
            due = self.due.get(node_id, 0)
            item.setText(2, str(due) if due else "")
            item.setTextAlignment(1, Qt.AlignRight | Qt.AlignVCenter)
            item.setTextAlignment(2, Qt.AlignRight | Qt.AlignVCenter)
        finished, total = self.roadmap.overall_progress(self.states)
        self.header.setText(self.tr("Overall progress: %1% (%2 of %3 nodes)")
                            .replace("%1", str(round(100 * finished / max(total, 1))))
                            .replace("%2", str(finished)).replace("%3", str(total)))

    # --- my notes ---------------------------------------------------------------------------
    def add_notes_folder(self, folder: str | None = None) -> None:
        """Ask for a folder (unless given), register it and index it with a progress bar."""
        if folder is None:
            folder = QFileDialog.getExistingDirectory(self, self.tr("Add notes folder"))
        if not folder:
            return
        self._start_scan(lambda col: _add_and_scan(col, folder, self.scan_progress.emit))

    def rescan_folders(self) -> None:
        self._start_scan(lambda col: _scan_all(col, self.scan_progress.emit))

    def _start_scan(self, job) -> None:
        self.ctx.tasks.run(job, self._scanned, self._scan_failed)

    def _on_progress(self, done: int, total: int) -> None:
        if total >= 50:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
            self.progress.setVisible(done < total)

    def _scanned(self, result) -> None:
        report, folders = result
        self.progress.hide()
        self.folders = folders
        self._fill_notes()
        self.apply_filter(self.filter.text())
        watched = set(self.watcher.directories())
        wanted = {str(p) for f in folders if not f.missing for p in self._note_dirs(f)}
        if watched - wanted:
            self.watcher.removePaths(sorted(watched - wanted))
        if wanted - watched:
            self.watcher.addPaths(sorted(wanted - watched))
        if report.indexed or report.removed:
            self.ctx.bus.data_changed.emit("notes")
        if report.skipped:
            self.ctx.bus.status_message.emit(
                self.tr("Skipped %1 note files that are not readable text, e.g. %2")
                .replace("%1", str(len(report.skipped))).replace("%2", report.skipped[0][0]))

    def _scan_failed(self, error: Exception) -> None:
        self.progress.hide()
        self.ctx.bus.status_message.emit(self.tr("Could not add the notes folder: %1").replace("%1", str(error)))

    @staticmethod
    def _note_dirs(folder) -> set[Path]:
        root = Path(folder.path)
        return {root} | {Path(n.path).parent for n in folder.notes}

    def _fill_notes(self) -> None:
        if self.notes_root is not None:
            index = self.tree.indexOfTopLevelItem(self.notes_root)
            was_open = self.notes_root.isExpanded()
            self.tree.takeTopLevelItem(index)
        else:
            was_open = True
        if not self.folders:
            self.notes_root = None
            return
        root = QTreeWidgetItem([self.tr("My notes"), "", ""])
        self.notes_root = root
        self.tree.addTopLevelItem(root)
        for folder in self.folders:
            top = QTreeWidgetItem([Path(folder.path).name or folder.path, "", str(len(folder.notes))])
            top.setData(0, FOLDER_ROLE, folder.id)
            top.setToolTip(0, folder.path + ("\n" + self.tr("This folder is missing.") if folder.missing else ""))
            top.setTextAlignment(2, Qt.AlignRight | Qt.AlignVCenter)
            root.addChild(top)
            base = Path(folder.path)
            for note in folder.notes:
                rel = Path(note.path).relative_to(base) if Path(note.path).is_relative_to(base) else Path(note.path)
                item = QTreeWidgetItem([note.title or rel.stem, "", ""])
                item.setData(0, NOTE_ROLE, note.path)
                item.setToolTip(0, str(rel))
                top.addChild(item)
        root.setExpanded(was_open)

    # --- interaction ----------------------------------------------------------------------
    def current_node_id(self) -> str | None:
        item = self.tree.currentItem()
        return item.data(0, NODE_ROLE) if item else None

    def _current_changed(self, item, _previous) -> None:
        if item is None:
            return
        target = item.data(0, NODE_ROLE) or item.data(0, NOTE_ROLE)
        if target:
            self.node_selected.emit(target)

    def set_state_current(self, state: str) -> None:
        node_id = self.current_node_id()
        if node_id:
            self.set_state(node_id, state)

    def set_state(self, node_id: str, state: str) -> None:
        if self.roadmap is None or node_id not in self.roadmap.nodes:
            return
        self.states[node_id] = state
        self.refresh_marks()
        self.ctx.tasks.run(lambda col: col.set_node_state(node_id, state),
                           lambda _: self.ctx.bus.data_changed.emit("progress"))

    def _menu(self, pos) -> None:
        item = self.tree.itemAt(pos)
        menu = QMenu(self)
        node_id = item.data(0, NODE_ROLE) if item is not None else None
        if not node_id:
            self._notes_menu(menu, item)
            menu.exec(self.tree.viewport().mapToGlobal(pos))
            return
        labels = {"pending": self.tr("Pending"), "learning": self.tr("Learning"),
                  "done": self.tr("Done"), "skipped": self.tr("Skipped")}
        for n, state in enumerate(STATES, start=1):
            action = menu.addAction(f"{STATE_MARKS[state]} {labels[state]}\tAlt+{n}")
            action.triggered.connect(lambda _=False, st=state: self.set_state(node_id, st))
        menu.addSeparator()
        review = menu.addAction(self.tr("Review this node's cards"))
        review.triggered.connect(lambda: self._review(node_id))
        menu.addSeparator()
        menu.addAction(self.tr("Expand all"), self.tree.expandAll)
        menu.addAction(self.tr("Collapse all"), self.tree.collapseAll)
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def _notes_menu(self, menu: QMenu, item: QTreeWidgetItem | None) -> None:
        menu.addAction(self.tr("Add notes folder…"), self.add_notes_folder)
        menu.addAction(self.tr("Re-index my notes"), self.rescan_folders)
        folder_id = item.data(0, FOLDER_ROLE) if item is not None else None
        if folder_id:
            menu.addAction(self.tr("Remove this folder from the list (files are kept)"),
                           lambda: self._remove_folder(folder_id))
        menu.addSeparator()
        menu.addAction(self.tr("Expand all"), self.tree.expandAll)
        menu.addAction(self.tr("Collapse all"), self.tree.collapseAll)

    def _remove_folder(self, folder_id: int) -> None:
        from studio.core.notes import remove_folder

        self._start_scan(lambda col: (remove_folder(col, folder_id), _scan_all(col, None))[1])

    def _review(self, node_id: str) -> None:
        from studio.core.review import QueueScope

        self.ctx.bus.review_scope.emit(QueueScope.for_node(self.roadmap, node_id))

    def review_current(self) -> None:
        node_id = self.current_node_id()
        if node_id and self.roadmap is not None:
            self._review(node_id)

    def apply_filter(self, text: str) -> None:
        needle = text.strip().lower()

        def visit(item: QTreeWidgetItem) -> bool:
            node = self.roadmap.nodes.get(item.data(0, NODE_ROLE)) if self.roadmap else None
            if node is not None:
                hay = " ".join((node.id, node.title_en, node.title_zh, node.summary_en, node.summary_zh)).lower()
            else:
                hay = " ".join((item.text(0), item.toolTip(0))).lower()
            child_match = False
            for i in range(item.childCount()):
                child_match |= visit(item.child(i))
            match = not needle or needle in hay or child_match
            item.setHidden(not match)
            if needle and child_match:
                item.setExpanded(True)
            return match

        for i in range(self.tree.topLevelItemCount()):
            visit(self.tree.topLevelItem(i))
