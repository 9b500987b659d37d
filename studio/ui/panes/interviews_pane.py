"""The Interviews pane: the log, upcoming events, charts and self-introduction drafts.

Ctrl+N logs a new interview, Enter edits the selected one, Delete asks and can be
undone. Questions become cards (linked back to the interview) and coding tasks open
their drill. Every collection call goes through the database worker.
"""

from __future__ import annotations

import html
from datetime import datetime, timedelta

from PySide6.QtCore import QDate, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.core import interviews as iv
from studio.ui.local_browser import LocalTextBrowser
from studio.ui.context import AppContext
from studio.ui import theme
from studio.ui.interview_form import InterviewForm





class InterviewsPane(QWidget):
    pane_id = "interviews"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.all_rows: list = []
        self.rows: list = []
        self.last_deleted: int | None = None
        self.result_names = {"scheduled": self.tr("scheduled"), "waiting": self.tr("waiting"),
                             "passed": self.tr("passed"), "rejected": self.tr("rejected"), "offer": self.tr("offer"),
                             "withdrawn": self.tr("withdrawn"), "no_response": self.tr("no response")}
        self.tabs = QTabWidget()
        self.tabs.addTab(self._log_tab(), self.tr("Log"))
        self.charts_tab = QWidget()
        self.tabs.addTab(self.charts_tab, self.tr("Charts"))
        self.tabs.addTab(self._intro_tab(), self.tr("Self-introduction"))
        self.tabs.currentChanged.connect(self._tab_changed)
        self.charts = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.tabs)
        QShortcut(QKeySequence.New, self, self.new_interview, context=Qt.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence(Qt.Key_Return), self.table, self.edit_selected, context=Qt.WidgetShortcut)
        QShortcut(QKeySequence(Qt.Key_Enter), self.table, self.edit_selected, context=Qt.WidgetShortcut)
        QShortcut(QKeySequence.Delete, self.table, self.delete_selected, context=Qt.WidgetShortcut)
        ctx.bus.data_changed.connect(self._data_changed)
        self.refresh()

    def _data_changed(self, what: str) -> None:
        if what == "interviews":
            self.refresh()

    # --- log tab -------------------------------------------------------------------------
    def _log_tab(self) -> QWidget:
        tab = QWidget()
        self.summary = QLabel()
        self.upcoming = QLabel()
        self.upcoming.setWordWrap(True)
        self.status = QComboBox()
        self.status.addItem(self.tr("All results"), "")
        for key, label in self.result_names.items():
            self.status.addItem(label, key)
        self.company = QLineEdit()
        self.company.setPlaceholderText(self.tr("Company"))
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search questions, notes…"))
        self.since = QDateEdit(QDate(2000, 1, 1))
        self.since.setCalendarPopup(True)
        self.since.setDisplayFormat("yyyy-MM-dd")
        self.until = QDateEdit(QDate.currentDate().addYears(1))
        self.until.setCalendarPopup(True)
        self.until.setDisplayFormat("yyyy-MM-dd")
        for widget in (self.status,):
            widget.currentIndexChanged.connect(self.apply_filters)
        for widget in (self.company, self.search):
            widget.textChanged.connect(self.apply_filters)
        for widget in (self.since, self.until):
            widget.dateChanged.connect(self.apply_filters)
        filters = QHBoxLayout()
        for w in (self.status, self.company, self.search, QLabel(self.tr("from")), self.since,
                  QLabel(self.tr("to")), self.until):
            filters.addWidget(w)
        buttons = QHBoxLayout()
        for label, slot in ((self.tr("New (Ctrl+N)"), self.new_interview), (self.tr("Edit (Enter)"), self.edit_selected),
                            (self.tr("Delete"), self.delete_selected), (self.tr("Export CSV"), lambda: self.export("csv")),
                            (self.tr("Export Markdown"), lambda: self.export("md"))):
            button = QPushButton(label)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        self.undo_button = QPushButton(self.tr("Undo delete"))
        self.undo_button.clicked.connect(self.undo_delete)
        self.undo_button.hide()
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        buttons.addWidget(self.summary)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels([self.tr("Date"), self.tr("Company"), self.tr("Role"),
                                              self.tr("Round"), self.tr("Result"), self.tr("Questions")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.table.itemSelectionChanged.connect(self._selected)
        self.table.doubleClicked.connect(self.edit_selected)
        self.detail = LocalTextBrowser()
        self.detail.theme_changed.connect(self._show_detail)
        self.detail.setOpenLinks(False)
        self.questions = QListWidget()
        self.make_card = QPushButton(self.tr("Make a card from this question"))
        self.make_card.clicked.connect(self.card_from_question)
        self.practise = QPushButton(self.tr("Practise the drill"))
        self.practise.clicked.connect(self.practise_drill)
        qbox = QWidget()
        qv = QVBoxLayout(qbox)
        qv.setContentsMargins(0, 0, 0, 0)
        qv.addWidget(QLabel(self.tr("What was asked")))
        qv.addWidget(self.questions)
        qrow = QHBoxLayout()
        qrow.addWidget(self.make_card)
        qrow.addWidget(self.practise)
        qv.addLayout(qrow)
        bottom = QSplitter()
        bottom.addWidget(self.detail)
        bottom.addWidget(qbox)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.table)
        split.addWidget(bottom)
        split.setSizes([320, 280])
        layout = QVBoxLayout(tab)
        layout.addWidget(self.upcoming)
        layout.addLayout(filters)
        layout.addLayout(buttons)
        layout.addWidget(split, 1)
        return tab

    def refresh(self) -> None:
        self.ctx.tasks.run(lambda col: (iv.list_interviews(col), iv.upcoming(col)), self._loaded)

    def _loaded(self, result) -> None:
        self.all_rows, upcoming = result
        if upcoming:
            lines = []
            for when, kind, row in upcoming:
                local = iv.local_time(when, row.tz).strftime("%m-%d %H:%M")
                what = row.round if kind == "interview" else row.next_step or self.tr("next step")
                lines.append(f"{local} · {row.company} · {what}")
            self.upcoming.setText(self.tr("Next 7 days:") + "  " + "   |   ".join(lines))
        else:
            self.upcoming.setText(self.tr("Nothing scheduled in the next 7 days."))
        self.apply_filters()
        if self.charts is not None:
            self.charts.update_rows(self.all_rows)

    def apply_filters(self) -> None:
        start = datetime(self.since.date().year(), self.since.date().month(), self.since.date().day())
        end = datetime(self.until.date().year(), self.until.date().month(), self.until.date().day()) + timedelta(days=1)
        self.rows = iv.filter_interviews(self.all_rows, status=self.status.currentData() or None,
                                         company=self.company.text().strip() or None, start=start, end=end,
                                         text=self.search.text())
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(self.rows))
        for r, row in enumerate(self.rows):
            cells = [iv.local_time(row.starts_at, row.tz).strftime("%Y-%m-%d %H:%M"), row.company, row.role, row.round,
                     self.result_names.get(row.result, row.result), str(len(row.questions))]
            for c, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setData(Qt.UserRole, row.id)
                self.table.setItem(r, c, item)
        self.table.setSortingEnabled(True)
        self.table.sortItems(0, Qt.DescendingOrder)
        self.summary.setText(self.tr("%1 of %2 interviews").replace("%1", str(len(self.rows)))
                             .replace("%2", str(len(self.all_rows))))
        if not self.all_rows:
            self.detail.setHtml("<p>" + self.tr("No interviews logged yet. Press Ctrl+N right after an interview: "
                                                "what was asked, how it went, and the result.") + "</p>")

    def selected(self):
        items = self.table.selectedItems()
        if not items:
            return None
        interview_id = items[0].data(Qt.UserRole)
        return next((r for r in self.all_rows if r.id == interview_id), None)

    def _selected(self) -> None:
        row = self.selected()
        self.questions.clear()
        if row is None:
            return
        self._show_detail()
        for q in row.questions:
            mark = " ✓" if q.card_id else ""
            rating = f" ({q.rating}/5)" if q.rating else ""
            item = QListWidgetItem(f"{q.text}{rating}{mark}")
            item.setData(Qt.UserRole, q.id)
            item.setData(Qt.UserRole + 1, q.drill_id or "")
            self.questions.addItem(item)

    def _show_detail(self) -> None:
        """The selected interview's facts and notes (rendered again when the theme changes)."""
        from studio.core.markdown_render import render_markdown

        row = self.selected()
        if row is None:
            return
        when = iv.local_time(row.starts_at, row.tz).strftime("%Y-%m-%d %H:%M")
        title = " · ".join(x for x in (row.company, row.round) if x)
        facts = " · ".join(x for x in (f"{when} ({row.tz})", " ".join(y for y in (row.role, row.team) if y),
                                        self.result_names.get(row.result, row.result)) if x)
        parts = [f"<h3>{html.escape(title)}</h3>", f"<p>{html.escape(facts)}</p>"]
        next_label, felt_label = self.tr("Next step"), self.tr("How it felt")
        if row.next_step:
            parts.append(f"<p><b>{next_label}:</b> {html.escape(row.next_step)}</p>")
        if row.felt:
            parts.append(f"<p><b>{felt_label}:</b> {html.escape(row.felt)}</p>")
        if row.notes_md:
            parts.append(render_markdown(row.notes_md[:200_000], dark=self.detail.dark).html)
        self.detail.setHtml("".join(parts))

    # --- actions -------------------------------------------------------------------------
    def _drill_ids(self) -> list[str]:
        try:
            from studio.drills.catalog import load_catalog

            return [d.id for d in load_catalog()]
        except Exception:
            return []

    def new_interview(self) -> None:
        self._edit(None)

    def edit_selected(self, _index=None) -> None:
        row = self.selected()
        if row is not None:
            self._edit(row)

    def _edit(self, row) -> None:
        form = InterviewForm(self, row, self._drill_ids())
        if form.exec() and form.result_draft is not None:
            draft, interview_id = form.result_draft, row.id if row is not None else None
            self.ctx.tasks.run(lambda col: iv.save_interview(col, draft, interview_id),
                               lambda _id: self.ctx.bus.data_changed.emit("interviews"),
                               lambda exc: QMessageBox.warning(self, self.tr("Not saved"), str(exc)))

    def delete_selected(self) -> None:
        row = self.selected()
        if row is None:
            return
        answer = QMessageBox.question(self, self.tr("Delete interview"),
                                      self.tr("Delete the interview with %1? You can undo this.")
                                      .replace("%1", row.company))
        if answer != QMessageBox.Yes:
            return
        self.last_deleted = row.id
        self.ctx.tasks.run(lambda col: iv.delete_interview(col, row.id), self._deleted)

    def _deleted(self, _result) -> None:
        self.undo_button.show()
        self.ctx.bus.data_changed.emit("interviews")

    def undo_delete(self) -> None:
        if self.last_deleted is None:
            return
        interview_id, self.last_deleted = self.last_deleted, None
        self.undo_button.hide()
        self.ctx.tasks.run(lambda col: iv.restore_interview(col, interview_id),
                           lambda _r: self.ctx.bus.data_changed.emit("interviews"))

    def card_from_question(self) -> None:
        item = self.questions.currentItem()
        if item is None:
            return
        question_id = item.data(Qt.UserRole)

        def made(card_id):
            self.ctx.bus.status_message.emit(self.tr("Card %1 created from the question.").replace("%1", str(card_id)))
            self.ctx.bus.data_changed.emit("cards")
            self.refresh()

        self.ctx.tasks.run(lambda col: iv.card_from_question(col, question_id), made)

    def practise_drill(self) -> None:
        item = self.questions.currentItem()
        drill = item.data(Qt.UserRole + 1) if item is not None else ""
        if drill:
            self.ctx.bus.open_drill.emit(drill)
        else:
            self.ctx.bus.status_message.emit(self.tr("This question is not linked to a drill."))

    def export(self, fmt: str) -> None:
        rows = list(self.rows)
        suffix = "csv" if fmt == "csv" else "md"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export interview log"), f"interviews.{suffix}")
        if not path:
            return
        text = iv.export_csv(rows) if fmt == "csv" else iv.export_markdown(rows)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        self.ctx.bus.status_message.emit(self.tr("Exported %1 interviews to %2").replace("%1", str(len(rows)))
                                         .replace("%2", path))

    # --- charts tab ------------------------------------------------------------------------
    def _tab_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.charts_tab and self.charts is None:
            self.charts = InterviewCharts(self.result_names, self.charts_tab)
            QVBoxLayout(self.charts_tab).addWidget(self.charts)
            self.charts.update_rows(self.all_rows)
        if index == 2:
            self.refresh_intros()

    # --- self-introduction tab --------------------------------------------------------------
    def _intro_tab(self) -> QWidget:
        tab = QWidget()
        self.intro_list = QListWidget()
        self.intro_list.currentRowChanged.connect(self._intro_selected)
        self.intro_lang = QComboBox()
        self.intro_lang.addItem("中文", "zh")
        self.intro_lang.addItem("English", "en")
        self.intro_title = QLineEdit()
        self.intro_title.setPlaceholderText(self.tr("Version name, e.g. 'infra team, 1 minute'"))
        self.intro_body = QPlainTextEdit()
        self.intro_body.textChanged.connect(self._intro_estimate)
        self.intro_estimate = QLabel()
        self.timer_label = QLabel("00:00")
        self.timer_label.setStyleSheet("font-size: 22px; font-weight: 600;")
        self.speak_timer = QTimer(self, interval=1000)
        self.speak_timer.timeout.connect(self._tick)
        self.speak_seconds = 0
        start = QPushButton(self.tr("Start / stop speaking timer"))
        start.clicked.connect(self._toggle_timer)
        new = QPushButton(self.tr("New version"))
        new.clicked.connect(self._new_intro)
        save = QPushButton(self.tr("Save"))
        save.clicked.connect(self._save_intro)
        self.intros: list = []
        self.current_intro: int | None = None
        left = QVBoxLayout()
        left.addWidget(self.intro_list)
        left.addWidget(new)
        right = QVBoxLayout()
        top = QHBoxLayout()
        top.addWidget(self.intro_lang)
        top.addWidget(self.intro_title, 1)
        top.addWidget(save)
        right.addLayout(top)
        right.addWidget(self.intro_body, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.intro_estimate, 1)
        bottom.addWidget(start)
        bottom.addWidget(self.timer_label)
        right.addLayout(bottom)
        layout = QHBoxLayout(tab)
        layout.addLayout(left, 1)
        layout.addLayout(right, 3)
        return tab

    def refresh_intros(self) -> None:
        self.ctx.tasks.run(iv.list_intros, self._intros_loaded)

    def _intros_loaded(self, intros) -> None:
        self.intros = intros
        self.intro_list.blockSignals(True)
        self.intro_list.clear()
        for intro in intros:
            title = intro.title or self.tr("(untitled)")
            self.intro_list.addItem(f"[{'中文' if intro.lang == 'zh' else 'EN'}] {title}")
        self.intro_list.blockSignals(False)

    def _intro_selected(self, row: int) -> None:
        if 0 <= row < len(self.intros):
            intro = self.intros[row]
            self.current_intro = intro.id
            self.intro_lang.setCurrentIndex(self.intro_lang.findData(intro.lang))
            self.intro_title.setText(intro.title)
            self.intro_body.setPlainText(intro.body)

    def _new_intro(self) -> None:
        self.current_intro = None
        self.intro_title.clear()
        self.intro_body.clear()

    def _save_intro(self) -> None:
        lang, title, body, intro_id = (self.intro_lang.currentData(), self.intro_title.text(),
                                       self.intro_body.toPlainText(), self.current_intro)

        def saved(new_id):
            self.current_intro = new_id
            self.refresh_intros()

        self.ctx.tasks.run(lambda col: iv.save_intro(col, lang, title, body, intro_id), saved)

    def _intro_estimate(self) -> None:
        seconds = iv.speaking_seconds(self.intro_body.toPlainText(), self.intro_lang.currentData())
        self.intro_estimate.setText(self.tr("About %1 s when spoken").replace("%1", str(seconds)))

    def _toggle_timer(self) -> None:
        if self.speak_timer.isActive():
            self.speak_timer.stop()
        else:
            self.speak_seconds = 0
            self.timer_label.setText("00:00")
            self.speak_timer.start()

    def _tick(self) -> None:
        self.speak_seconds += 1
        self.timer_label.setText(f"{self.speak_seconds // 60:02d}:{self.speak_seconds % 60:02d}")


class InterviewCharts(QWidget):
    """Interviews per week, the result funnel, and the topics asked most with self-ratings."""

    def __init__(self, result_names: dict[str, str], parent: QWidget | None = None):
        super().__init__(parent)
        import pyqtgraph as pg

        self.result_names = result_names
        self.per_week = pg.PlotWidget(title=self.tr("Interviews per week"))
        self.funnel = pg.PlotWidget(title=self.tr("Results"))
        self.topics = QTableWidget(0, 3)
        self.topics.setHorizontalHeaderLabels([self.tr("Topic"), self.tr("Times asked"), self.tr("Average self-rating")])
        self.topics.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        for column in (1, 2):
            self.topics.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeToContents)
        for plot in (self.per_week, self.funnel):
            plot.setBackground(None)
            plot.showGrid(y=True, alpha=0.3)
        top = QHBoxLayout()
        top.addWidget(self.per_week, 2)
        top.addWidget(self.topics, 3)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addWidget(self.funnel, 1)
        self.data: dict = {}

    def update_rows(self, rows) -> None:
        import pyqtgraph as pg

        weeks = iv.interviews_per_week(rows)
        funnel = iv.funnel(rows)
        topics = iv.topics_asked(rows)
        self.data = {"weeks": weeks, "funnel": funnel, "topics": topics}
        theme.style_plot(self.per_week, background=False)
        theme.style_plot(self.funnel, background=False)
        self.per_week.clear()
        if weeks:
            self.per_week.addItem(pg.BarGraphItem(x=list(range(len(weeks))), height=list(weeks.values()),
                                                  width=0.7, brush=theme.color("accent")))
            self.per_week.getAxis("bottom").setTicks(
                [[(i, d.strftime("%m-%d")) for i, d in enumerate(weeks)][:: max(1, len(weeks) // 8)]])
        self.funnel.clear()
        names = list(funnel)
        self.funnel.addItem(pg.BarGraphItem(x=list(range(len(names))), height=[funnel[n] for n in names],
                                            width=0.7, brush=theme.SERIES[2]))
        self.funnel.getAxis("bottom").setTicks([[(i, self.result_names.get(n, n)) for i, n in enumerate(names)]])
        self.funnel.getAxis("bottom").setStyle(tickTextOffset=4)
        self.topics.setRowCount(len(topics))
        for r, (node, count, avg) in enumerate(topics):
            for c, value in enumerate((node, str(count), "—" if avg is None else f"{avg:.1f}")):
                self.topics.setItem(r, c, QTableWidgetItem(value))
