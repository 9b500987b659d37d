"""The Drills pane: the kernel drills available, with each drill's statement."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext


def _load_drills(_col):
    from studio.drills.catalog import load_catalog

    return load_catalog()


class DrillsPane(QWidget):
    pane_id = "drills"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.drills = []
        self.list = QListWidget()
        self.list.currentRowChanged.connect(self._selected)
        self.statement = QTextBrowser()
        self.banner = QLabel()
        split = QSplitter()
        split.addWidget(self.list)
        split.addWidget(self.statement)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(split)
        ctx.bus.open_drill.connect(self.select_drill)
        self.refresh()

    def refresh(self) -> None:
        self.ctx.tasks.run(_load_drills, self._loaded, self._failed)

    def _failed(self, exc: Exception) -> None:
        self.banner.setText(self.tr("Drills could not be loaded:") + f" {exc}")

    def _loaded(self, drills) -> None:
        self.drills = list(drills)
        self.list.clear()
        for drill in self.drills:
            if getattr(drill, "error", None):
                item = QListWidgetItem(f"{drill.id}  ·  " + self.tr("broken: %1").replace("%1", drill.error))
                item.setData(Qt.UserRole, drill.id)
                self.list.addItem(item)
                continue
            minutes = self.tr("%1 min").replace("%1", str(drill.time_limit_min))
            item = QListWidgetItem(f"{drill.title}  ·  {drill.difficulty}  ·  {minutes}")
            item.setData(Qt.UserRole, drill.id)
            self.list.addItem(item)
        self.banner.setText(self.tr("%1 drills").replace("%1", str(len(self.drills))))
        if self.drills:
            self.list.setCurrentRow(0)

    def _selected(self, row: int) -> None:
        if 0 <= row < len(self.drills):
            from studio.core.markdown_render import render_markdown

            drill = self.drills[row]
            self.statement.setHtml(render_markdown(drill.statement or drill.error or "").html)

    def select_drill(self, drill_id: str) -> None:
        for row, drill in enumerate(self.drills):
            if drill.id == drill_id:
                self.list.setCurrentRow(row)
