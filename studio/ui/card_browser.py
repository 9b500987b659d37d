"""The card browser: search, sort and bulk-edit cards, as in Anki's browser.

The search box takes the browser language of `studio.core.cards` (free text, tag:,
node:, is:due, is:new, is:suspended, prop:r<0.8 ...). Clicking a header sorts in the
database. Selected cards can be suspended, retagged, deleted, edited (with a live
preview) or reviewed as a session.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext

PAGE = 200  # rows fetched at a time as the table scrolls


def _number(value, digits: int = 1) -> str:
    return "" if value is None else f"{value:.{digits}f}"


class CardTableModel(QAbstractTableModel):
    """All matching card ids, with rows fetched a page at a time when they are drawn.

    As in Anki's browser, a search returns ids only; the few rows on screen are read by
    id (a core call of a millisecond or two), so a search over tens of thousands of
    cards never loads them all.
    """

    def __init__(self, parent: QWidget | None = None, fetch=None):
        super().__init__(parent)
        self.ids: list[int] = []
        self.cache: dict[int, object] = {}
        self.fetch = fetch  # callable(list[int]) -> list[BrowserRow]
        self.zh = False
        self.headers = [self.tr("Question"), self.tr("Node"), self.tr("Tags"), self.tr("Due"),
                        self.tr("Interval (d)"), self.tr("Stability"), self.tr("Difficulty"),
                        self.tr("Retrievability"), self.tr("Lapses"), self.tr("Reviews")]

    def set_ids(self, ids: list[int], first_rows: list | None = None) -> None:
        self.beginResetModel()
        self.ids = list(ids)
        self.cache = {row.id: row for row in (first_rows or [])}
        self.endResetModel()

    @property
    def rows(self) -> list:
        """Every row in table order, fetched page by page as needed (tests read it)."""
        return [self.row(i) for i in range(len(self.ids))]

    def row(self, index: int):
        card_id = self.ids[index]
        if card_id not in self.cache and self.fetch is not None:
            start = (index // PAGE) * PAGE
            for fetched in self.fetch(self.ids[start:start + PAGE]):
                self.cache[fetched.id] = fetched
        return self.cache.get(card_id)

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.ids)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.headers[section]
        return None

    def data(self, index, role=Qt.DisplayRole):
        if role == Qt.UserRole:
            return self.ids[index.row()]
        row = self.row(index.row())
        if row is None:
            return None
        if role == Qt.DisplayRole:
            return self._text(row, index.column())
        if role == Qt.ForegroundRole and row.suspended:
            from studio.ui.theme import qcolor

            return qcolor("text_disabled")
        if role == Qt.ToolTipRole and index.column() == 0:
            return row.question_zh or row.question
        if role == Qt.UserRole:
            return row.id
        return None

    def _text(self, row, column: int) -> str:
        question = (row.question_zh if self.zh and row.question_zh else row.question) or row.question_zh
        due = "" if row.is_new else (row.due.strftime("%Y-%m-%d") if isinstance(row.due, datetime) else "")
        values = [question.splitlines()[0] if question else "", row.node, row.tags,
                  due if not row.is_new else self.tr("new"), _number(row.interval_days),
                  _number(row.stability), _number(row.difficulty, 2), _number(row.retrievability, 2),
                  str(row.lapses), str(row.reviews)]
        return values[column]


class CardBrowser(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent, Qt.Window)
        from studio.core.cards import COLUMNS

        self.ctx = ctx
        self.columns = COLUMNS
        self.order, self.descending = "due", False
        self.setWindowTitle(self.tr("Browse cards"))
        self.resize(1100, 650)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search: words, tag:NAME, node:ID, is:due, is:new, is:suspended, prop:r<0.8"))
        self.search.returnPressed.connect(self.run_search)
        self._debounce = QTimer(self, singleShot=True, interval=250)
        self._debounce.timeout.connect(self.run_search)
        self.search.textEdited.connect(self._debounce.start)
        self.model = CardTableModel(self, fetch=self._fetch_rows)
        self.model.zh = ctx.settings.get("card_language") == "zh"
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.table.setSortingEnabled(False)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(self.columns.index(self.order), Qt.AscendingOrder)
        header.sectionClicked.connect(self._sort)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header.setSectionResizeMode(QHeaderView.Interactive)
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        for col, width in zip(range(1, len(self.columns)), (170, 170, 90, 80, 75, 75, 95, 60, 65)):
            header.resizeSection(col, width)
        self.table.doubleClicked.connect(lambda _: self.edit_selected())
        self.status = QLabel()
        buttons = QHBoxLayout()
        self.action_buttons = {}
        for key, label, slot in (
            ("new", self.tr("New card"), self.new_card),
            ("edit", self.tr("Edit"), self.edit_selected),
            ("suspend", self.tr("Suspend"), lambda: self.set_suspended(True)),
            ("unsuspend", self.tr("Unsuspend"), lambda: self.set_suspended(False)),
            ("retag", self.tr("Retag…"), self.retag_selected),
            ("delete", self.tr("Delete…"), self.delete_selected),
            ("review", self.tr("Review these"), self.review_selected),
        ):
            button = QPushButton(label)
            button.clicked.connect(slot)
            buttons.addWidget(button)
            self.action_buttons[key] = button
        buttons.addStretch(1)
        buttons.addWidget(self.status)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        ctx.bus.data_changed.connect(self._data_changed)
        self.run_search()

    # --- search -------------------------------------------------------------------------
    def run_search(self) -> None:
        from studio.core.cards import rows_for_ids, search_ids

        query, order, desc = self.search.text(), self.order, self.descending

        def search(col):
            ids = search_ids(col, query, order, desc)
            return ids, rows_for_ids(col, ids[:PAGE])

        self.ctx.tasks.run(search, self._show_ids, self._search_failed)

    def _show_ids(self, result) -> None:
        ids, first_rows = result
        self.model.set_ids(ids, first_rows)
        self.status.setText(self.tr("%1 cards").replace("%1", str(len(ids))))
        from studio.ui.theme import set_role

        set_role(self.status, "role", "")

    def _fetch_rows(self, ids: list[int]) -> list:
        """Rows for the cards scrolled into view: a read by id, on the GUI thread like Anki's."""
        from studio.core.cards import rows_for_ids

        return rows_for_ids(self.ctx.collection, ids)

    def _search_failed(self, error: Exception) -> None:
        self.status.setText(str(error))
        from studio.ui.theme import set_role

        set_role(self.status, "role", "error")

    def _sort(self, column: int) -> None:
        key = self.columns[column]
        self.descending = not self.descending if key == self.order else False
        self.order = key
        self.table.horizontalHeader().setSortIndicator(
            column, Qt.DescendingOrder if self.descending else Qt.AscendingOrder)
        self.run_search()

    def _data_changed(self, what: str) -> None:
        if what in ("cards", "reviews") and self.isVisible():
            self.run_search()

    # --- actions ------------------------------------------------------------------------
    def selected_ids(self) -> list[int]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [self.model.ids[r] for r in rows]

    def _apply(self, fn) -> None:
        ids = self.selected_ids()
        if not ids:
            self.status.setText(self.tr("Select cards first."))
            return
        self.ctx.tasks.run(lambda col: fn(col, ids), lambda _: self.ctx.bus.data_changed.emit("cards"),
                           self._search_failed)

    def set_suspended(self, suspended: bool) -> None:
        from studio.core.cards import set_suspended

        self._apply(lambda col, ids: set_suspended(col, ids, suspended))

    def retag_selected(self, text: str | None = None) -> None:
        """Tags to add, and '-tag' to remove, separated by spaces."""
        from studio.core.cards import retag

        if not self.selected_ids():
            self.status.setText(self.tr("Select cards first."))
            return
        if not isinstance(text, str):
            text, ok = QInputDialog.getText(self, self.tr("Retag"),
                                            self.tr("Tags to add; prefix with - to remove (e.g. triton -old):"))
            if not ok:
                return
        words = text.split()
        add = [w for w in words if not w.startswith("-")]
        remove = [w[1:] for w in words if w.startswith("-")]
        self._apply(lambda col, ids: retag(col, ids, add, remove))

    def delete_selected(self, confirm: bool = True) -> None:
        from studio.core.cards import delete_cards

        ids = self.selected_ids()
        if not ids:
            self.status.setText(self.tr("Select cards first."))
            return
        if confirm and QMessageBox.question(
                self, self.tr("Delete cards"),
                self.tr("Delete %1 cards and their review history?").replace("%1", str(len(ids)))) != QMessageBox.Yes:
            return
        self._apply(lambda col, ids: delete_cards(col, ids))

    def edit_selected(self) -> None:
        ids = self.selected_ids()
        if ids:
            self._editor(ids[0])

    def new_card(self) -> None:
        self._editor(None)

    def _editor(self, card_id: int | None):
        from studio.ui.card_editor import CardEditor

        editor = CardEditor(self.ctx, card_id, self)
        editor.show()
        return editor

    def review_selected(self) -> None:
        from studio.core.review import QueueScope

        ids = self.selected_ids()
        scope = QueueScope(card_ids=ids) if ids else QueueScope(search=self.search.text() or None)
        self.ctx.bus.review_scope.emit(scope)
