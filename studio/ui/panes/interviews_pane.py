"""The Interviews pane: the interview log as a sortable table with a detail view."""

from __future__ import annotations

from datetime import timezone
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext


class InterviewsPane(QWidget):
    pane_id = "interviews"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.rows = []
        self.summary = QLabel()
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(
            [self.tr("Date"), self.tr("Company"), self.tr("Round"), self.tr("Result"), self.tr("Questions")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.table.itemSelectionChanged.connect(self._selected)
        self.detail = QTextBrowser()
        refresh = QPushButton(self.tr("Refresh"))
        refresh.clicked.connect(self.refresh)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(refresh)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split)
        ctx.bus.data_changed.connect(lambda what: what == "interviews" and self.refresh())
        self.refresh()

    def refresh(self) -> None:
        from studio.core.interviews import list_interviews

        self.ctx.tasks.run(list_interviews, self._loaded)

    def _loaded(self, rows) -> None:
        self.rows = rows
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(rows))
        for r, iv in enumerate(rows):
            local = iv.starts_at.replace(tzinfo=timezone.utc).astimezone(_zone(iv.tz))
            cells = [local.strftime("%Y-%m-%d %H:%M"), iv.company, iv.round, iv.result, str(len(iv.questions))]
            for c, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setData(Qt.UserRole, r)
                self.table.setItem(r, c, item)
        self.table.setSortingEnabled(True)
        self.table.sortItems(0, Qt.DescendingOrder)
        if rows:
            self.summary.setText(self.tr("%1 interviews logged").replace("%1", str(len(rows))))
            self.detail.setHtml("")
        else:
            self.summary.setText(self.tr("No interviews logged yet."))
            self.detail.setHtml("<p>" + self.tr("Log each interview right after it ends: what was asked, "
                                                "how it went, and the result.") + "</p>")

    def _selected(self) -> None:
        items = self.table.selectedItems()
        if not items:
            return
        iv = self.rows[items[0].data(Qt.UserRole)]
        parts = [f"<h3>{iv.company} — {iv.round}</h3>", f"<p>{iv.role} {iv.team}</p>"]
        if iv.questions:
            parts.append("<ol>" + "".join(
                f"<li>{q.text}" + (f" ({q.rating}/5)" if q.rating else "") + "</li>" for q in iv.questions) + "</ol>")
        if iv.felt:
            parts.append(f"<p><b>{self.tr('How it felt')}:</b> {iv.felt}</p>")
        self.detail.setHtml("".join(parts))


def _zone(name: str):
    try:
        return ZoneInfo(name)
    except Exception:
        return timezone.utc
