"""Quick open (Ctrl+K): jump to a roadmap node, note, card or drill by typing."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout

from studio.ui.context import AppContext


def load_drills() -> list:
    """The drill catalogue, or nothing when it cannot be read (the Drills pane says why)."""
    try:
        from studio.drills.catalog import load_catalog

        return [d for d in load_catalog() if d.ok]
    except Exception:
        return []


def quick_results(col, query: str, lang: str, drills: list,
                  levels: dict[str, str] | None = None) -> list[tuple[str, str, str, str]]:
    """(kind, target, label, snippet HTML) rows for a query over nodes, notes, cards and drills.

    Notes and cards come from full-text search (ranked, matches highlighted in the snippet).
    A drill is found by its id or its title in either language and shown with the title in
    `lang`; `levels` names the difficulties in the UI language.
    """
    from studio.core.search import search_cards, search_notes

    rows: list[tuple[str, str, str, str]] = []
    needle = query.strip().lower()
    if not needle:
        return rows
    roadmap = col.roadmap
    if roadmap is not None:
        for node in roadmap.walk():
            if needle in node.id or needle in node.title_en.lower() or needle in node.title_zh:
                rows.append(("node", node.id, node.title(lang), html.escape(node.summary(lang))))
    for hit in search_notes(col, query, limit=20):
        rows.append(("note", hit.node_id or hit.path, hit.title, hit.highlighted))
    for hit in search_cards(col, query, limit=20):
        rows.append(("card", str(hit.id), hit.snippet if lang == "zh" and hit.snippet else hit.title, hit.highlighted))
    for drill in drills:
        titles = (drill.title.lower(), drill.title_for("zh").lower())
        if needle in drill.id or any(needle in t for t in titles):
            level = (levels or {}).get(drill.difficulty, drill.difficulty)
            rows.append(("drill", drill.id, drill.title_for(lang), html.escape(level)))
    return rows[:80]


class QuickOpen(QDialog):
    def __init__(self, ctx: AppContext, parent=None, panes: dict[str, str] | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.panes = panes or {}  # pane id -> its title, so "bench" opens the Bench pane
        self.drills: list | None = None  # the drill catalogue, read on the first search
        self.setWindowTitle(self.tr("Quick open"))
        self.resize(640, 420)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(self.tr("Search nodes, notes, cards and drills…"))
        self.list = QListWidget()
        layout = QVBoxLayout(self)
        layout.addWidget(self.edit)
        layout.addWidget(self.list)
        self.timer = QTimer(self, singleShot=True, interval=120)
        self.timer.timeout.connect(self._search)
        self.edit.textChanged.connect(lambda _: self.timer.start())
        self.edit.returnPressed.connect(self._accept_current)
        self.list.itemActivated.connect(self._accept)
        self.kind_names = {"node": self.tr("Node"), "note": self.tr("Note"), "card": self.tr("Card"),
                           "drill": self.tr("Drill"), "pane": self.tr("Pane")}
        self.levels = {"easy": self.tr("easy"), "medium": self.tr("medium"), "hard": self.tr("hard")}

    def _search(self) -> None:
        query, lang, levels = self.edit.text(), self.ctx.content_lang, self.levels
        drills = self.drills

        def search(col):
            found = drills if drills is not None else load_drills()  # read once per dialog
            return quick_results(col, query, lang, found, levels), found

        self.ctx.tasks.run(search, self._show)

    def _show(self, result) -> None:
        rows, self.drills = result
        needle = self.edit.text().strip().lower()
        panes = [("pane", pid, title, "") for pid, title in self.panes.items()
                 if needle and (needle in pid or needle in title.lower())]
        rows = panes + rows
        self.list.clear()
        for kind, target, label, snippet in rows:
            item = QListWidgetItem()
            item.setData(Qt.UserRole, (kind, target))
            item.setData(Qt.AccessibleTextRole, f"[{self.kind_names[kind]}] {label}")
            view = QLabel(f"<b>[{self.kind_names[kind]}]</b> {html.escape(label)}"
                          + (f"<br><span style='color:gray'>{snippet}</span>" if snippet else ""))
            view.setTextFormat(Qt.RichText)
            view.setContentsMargins(4, 2, 4, 2)
            item.setSizeHint(view.sizeHint())
            self.list.addItem(item)
            self.list.setItemWidget(item, view)
        if rows:
            self.list.setCurrentRow(0)

    def _accept_current(self) -> None:
        if self.list.currentItem() is not None:
            self._accept(self.list.currentItem())

    def _accept(self, item: QListWidgetItem) -> None:
        kind, target = item.data(Qt.UserRole)
        bus = self.ctx.bus
        if kind in ("node", "note"):
            bus.node_selected.emit(target)
        elif kind == "card":
            bus.open_card.emit(int(target))
        elif kind == "drill":
            bus.open_drill.emit(target)
        elif kind == "pane":
            bus.open_pane.emit(target)
        self.accept()
