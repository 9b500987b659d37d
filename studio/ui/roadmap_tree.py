"""The roadmap tree on the left: nodes, their state, subtree progress and due cards."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.roadmap import STATES
from studio.ui.context import AppContext

STATE_MARKS = {"pending": "○", "learning": "◐", "done": "●", "skipped": "⊘"}
STATE_COLORS = {"pending": None, "learning": "#d08a1c", "done": "#2e9d50", "skipped": "#888888"}
NODE_ROLE = Qt.UserRole + 1


class RoadmapTree(QWidget):
    node_selected = Signal(str)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.states: dict[str, str] = {}
        self.due: dict[str, int] = {}
        self.items: dict[str, QTreeWidgetItem] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.header = QLabel()
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(self.tr("Filter roadmap…"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.apply_filter)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Roadmap"), self.tr("Progress"), self.tr("Due")])
        self.tree.setColumnWidth(0, 230)
        self.tree.setColumnWidth(1, 56)
        self.tree.setContextMenuPolicy(Qt.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.tree.currentItemChanged.connect(self._current_changed)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.header)
        layout.addWidget(self.filter)
        layout.addWidget(self.error)
        layout.addWidget(self.tree)
        for key, state in (("1", "pending"), ("2", "learning"), ("3", "done"), ("4", "skipped")):
            action = QAction(self)
            action.setShortcut(QKeySequence(f"Alt+{key}"))
            action.setShortcutContext(Qt.WidgetWithChildrenShortcut)
            action.triggered.connect(lambda _=False, st=state: self.set_state_current(st))
            self.tree.addAction(action)
        self.reload()

    # --- data --------------------------------------------------------------------------
    def reload(self) -> None:
        self.ctx.tasks.run(lambda col: (col.roadmap, col.status.roadmap_error, col.node_states(),
                                        col.due_counts_by_node()), self._loaded)

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
        self.tree.clear()
        self.items.clear()
        lang = self.ctx.content_lang
        for area in roadmap.areas:
            self.tree.addTopLevelItem(self._make_item(area, lang))
        self.refresh_marks()
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
            item.setForeground(0, QBrush(QColor(color)) if color else QBrush())
            finished, total = self.roadmap.progress(node_id, self.states)
            item.setText(1, f"{round(100 * finished / total)}%" if node.children else "")
            due = sum(self.due.get(i, 0) for i in self.roadmap.subtree_ids(node_id))
            item.setText(2, str(due) if due else "")
        finished, total = self.roadmap.overall_progress(self.states)
        self.header.setText(self.tr("Overall progress: %1% (%2 of %3 nodes)")
                            .replace("%1", str(round(100 * finished / max(total, 1))))
                            .replace("%2", str(finished)).replace("%3", str(total)))

    # --- interaction ----------------------------------------------------------------------
    def current_node_id(self) -> str | None:
        item = self.tree.currentItem()
        return item.data(0, NODE_ROLE) if item else None

    def _current_changed(self, item, _previous) -> None:
        if item is not None:
            self.node_selected.emit(item.data(0, NODE_ROLE))

    def set_state_current(self, state: str) -> None:
        node_id = self.current_node_id()
        if node_id:
            self.set_state(node_id, state)

    def set_state(self, node_id: str, state: str) -> None:
        self.states[node_id] = state
        self.refresh_marks()
        self.ctx.tasks.run(lambda col: col.set_node_state(node_id, state),
                           lambda _: self.ctx.bus.data_changed.emit("progress"))

    def _menu(self, pos) -> None:
        item = self.tree.itemAt(pos)
        if item is None:
            return
        node_id = item.data(0, NODE_ROLE)
        menu = QMenu(self)
        labels = {"pending": self.tr("Pending"), "learning": self.tr("Learning"),
                  "done": self.tr("Done"), "skipped": self.tr("Skipped")}
        for n, state in enumerate(STATES, start=1):
            action = menu.addAction(f"{STATE_MARKS[state]} {labels[state]}\tAlt+{n}")
            action.triggered.connect(lambda _=False, st=state: self.set_state(node_id, st))
        menu.addSeparator()
        review = menu.addAction(self.tr("Review this node's cards"))
        review.triggered.connect(lambda: self._review(node_id))
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def _review(self, node_id: str) -> None:
        from studio.core.review import QueueScope

        self.ctx.bus.review_scope.emit(QueueScope(node_ids=self.roadmap.subtree_ids(node_id)))

    def apply_filter(self, text: str) -> None:
        needle = text.strip().lower()

        def visit(item: QTreeWidgetItem) -> bool:
            node = self.roadmap.nodes[item.data(0, NODE_ROLE)]
            hay = " ".join((node.id, node.title_en, node.title_zh, node.summary_en, node.summary_zh)).lower()
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
