"""File → Database → Restore from backup…: the backups with dates and counts, and restoring one.

The list is read on the database worker (backups made by older versions are checked the
first time they are listed). Restoring closes the collection on the worker, puts a
checked copy of the backup in place with the current file kept aside, and opens it
again; every pane is then told that everything changed.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from studio import paths
from studio.core import backups as bk
from studio.ui.context import AppContext

EVERYTHING = ("cards", "reviews", "interviews", "notes", "drills", "progress")


class BackupDialog(QDialog):
    restored = Signal(str)  # the backup id

    def __init__(self, ctx: AppContext, parent=None):
        super().__init__(parent)
        self.ctx = ctx
        self.backups: list[bk.BackupInfo] = []
        self.setWindowTitle(self.tr("Restore from backup"))
        self.resize(760, 420)
        self.intro = QLabel(self.tr("Backups are made once a day and before every upgrade; each is checked before it counts. "
                                    "Restoring keeps the current file aside, so nothing is lost."))
        self.intro.setWordWrap(True)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels([self.tr("Date"), self.tr("Kind"), self.tr("Cards"), self.tr("Reviews"),
                                              self.tr("Size"), self.tr("Check")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selection)
        self.status = QLabel(self.tr("Reading the backups…"))
        self.status.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        self.backup_button = QPushButton(self.tr("Back up now"))
        self.restore_button = QPushButton(self.tr("Restore selected…"))
        self.restore_button.setEnabled(False)
        buttons.addButton(self.backup_button, QDialogButtonBox.ActionRole)
        buttons.addButton(self.restore_button, QDialogButtonBox.ActionRole)
        buttons.rejected.connect(self.reject)
        self.backup_button.clicked.connect(self.backup_now)
        self.restore_button.clicked.connect(self.restore_selected)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.reload()

    def reload(self) -> None:
        self.ctx.tasks.run(lambda _col: bk.list_backups(paths.backups_dir()), self._listed, self._failed)

    def _kind(self, reason: str) -> str:
        return {"daily": self.tr("daily"), "manual": self.tr("manual"),
                "pre-migration": self.tr("before upgrade")}.get(reason, reason)

    def _listed(self, backups: list) -> None:
        self.backups = backups
        self.table.setRowCount(len(backups))
        for row, b in enumerate(backups):
            check = (self.tr("damaged") if b.damaged else self.tr("ok") if b.good
                     else self.tr("no collection") if b.verified else self.tr("not checked"))
            cells = [f"{b.created:%Y-%m-%d %H:%M}", self._kind(b.reason), str(b.cards), str(b.reviews),
                     f"{b.size / 1e6:.1f} MB", check]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col in (2, 3, 4):
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(row, col, item)
        if backups:
            self.status.setText(self.tr("Backups kept: %1 (in %2)").replace("%1", str(len(backups)))
                                .replace("%2", str(paths.backups_dir())))
            self.table.selectRow(next((i for i, b in enumerate(backups) if b.good), 0))
        else:
            self.status.setText(self.tr("No backups yet. One is made on the first start of each day."))

    def _failed(self, exc: Exception) -> None:
        from studio.ui.tasks import user_message

        self.status.setText(self.tr("Error: %1").replace("%1", user_message(exc)))

    def selected(self) -> bk.BackupInfo | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.backups[rows[0].row()] if rows else None

    def _selection(self) -> None:
        chosen = self.selected()
        self.restore_button.setEnabled(chosen is not None and not chosen.damaged)

    def backup_now(self) -> None:
        self.status.setText(self.tr("Backing up…"))
        self.ctx.tasks.run(lambda col: bk.make_backup(col.db.path, paths.backups_dir(), reason="manual"),
                           lambda _info: self.reload(), self._failed)

    def restore_selected(self) -> None:
        chosen = self.selected()
        if chosen is None:
            return
        question = self.tr("Restore the backup of %1 (%2 cards, %3 reviews)? The current database is kept aside "
                           "in the data folder, not deleted.")
        question = question.replace("%1", f"{chosen.created:%Y-%m-%d %H:%M}").replace(
            "%2", str(chosen.cards)).replace("%3", str(chosen.reviews))
        if QMessageBox.question(self, self.tr("Restore from backup"), question) != QMessageBox.Yes:
            return
        self.status.setText(self.tr("Restoring…"))
        self.restore_button.setEnabled(False)
        backups = paths.backups_dir()
        self.ctx.tasks.reopen(lambda db_path: bk.restore_backup(db_path, backups, chosen.id),
                              self._restored, self._failed)

    def _restored(self, result) -> None:
        info, kept = result
        for what in EVERYTHING:
            self.ctx.bus.data_changed.emit(what)
        text = self.tr("Restored the backup of %1.").replace("%1", f"{info.created:%Y-%m-%d %H:%M}")
        if kept:
            text += " " + self.tr("The previous file is kept as %1.").replace("%1", kept.name)
        self.status.setText(text)
        self.ctx.bus.status_message.emit(text)
        self.restored.emit(info.id)
