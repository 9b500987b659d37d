"""Mock interview mode: timed questions from chosen topics, self-graded, summarised.

Pick roadmap areas and a number of questions; each question shows with a countdown
(the review settings hold the default), the user answers aloud or types notes, reveals
the answer and grades it 1-4. Grades are FSRS reviews like any other. The summary
(time per question, grades, weakest topics) is kept in the history shown on the
setup page.
"""

from __future__ import annotations

import html
import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from studio.ui import theme
from studio.ui.local_browser import LocalTextBrowser
from studio.ui.context import AppContext
from studio.ui.review_settings import mock_seconds


def _topics(col) -> list[tuple[str, str, str]]:
    roadmap = col.roadmap
    return [(a.id, a.title_en, a.title_zh) for a in roadmap.areas] if roadmap else []


class MockInterviewDialog(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent, Qt.Window)
        self.ctx = ctx
        self.mock = None
        self.card = None
        self.revealed = False
        self.started_at = 0.0
        self.summary: dict | None = None
        self.setWindowTitle(self.tr("Mock interview"))
        self.resize(900, 650)
        self.pages = QStackedWidget()
        self.pages.addWidget(self._setup_page())
        self.pages.addWidget(self._question_page())
        self.pages.addWidget(self._summary_page())
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        self.timer = QTimer(self, interval=250)
        self.timer.timeout.connect(self._tick)
        for key in ("Space", "Return", "Enter"):
            QShortcut(QKeySequence(key), self, self._space, context=Qt.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.reveal, context=Qt.WidgetWithChildrenShortcut)
        for n in range(1, 5):
            QShortcut(QKeySequence(str(n)), self, lambda r=n: self.grade(r), context=Qt.WidgetWithChildrenShortcut)
        ctx.tasks.run(_topics, self._topics_loaded)
        self._load_history()

    # --- pages --------------------------------------------------------------------------
    def _setup_page(self) -> QWidget:
        page = QWidget()
        self.topic_list = QListWidget()
        self.count = QSpinBox(minimum=1, maximum=50, value=5)
        self.minutes = QDoubleSpinBox(minimum=0.5, maximum=60, singleStep=0.5, decimals=1)
        self.minutes.setValue(mock_seconds(self.ctx) / 60)
        self.start_button = QPushButton(self.tr("Start mock interview"))
        self.start_button.clicked.connect(self.start)
        self.setup_error = QLabel()
        self.setup_error.setProperty("role", "error")  # coloured by the theme's style sheet
        self.history = LocalTextBrowser()
        form = QFormLayout()
        form.addRow(self.tr("Questions"), self.count)
        form.addRow(self.tr("Minutes per question"), self.minutes)
        layout = QVBoxLayout(page)
        layout.addWidget(QLabel(self.tr("Topics (none checked: all topics)")))
        layout.addWidget(self.topic_list, 2)
        layout.addLayout(form)
        layout.addWidget(self.start_button)
        layout.addWidget(self.setup_error)
        layout.addWidget(QLabel(self.tr("History")))
        layout.addWidget(self.history, 1)
        return page

    def _question_page(self) -> QWidget:
        page = QWidget()
        self.progress = QLabel()
        self.countdown = QLabel()
        self.countdown.setStyleSheet("font-size: 22px; font-weight: 600;")
        top = QHBoxLayout()
        top.addWidget(self.progress, 1)
        top.addWidget(self.countdown)
        self.question = LocalTextBrowser()
        self.question.theme_changed.connect(lambda _dark: self._render() if self.card is not None else None)
        self.question.setOpenLinks(False)
        self.notes = QPlainTextEdit()
        self.notes.setPlaceholderText(self.tr("Answer aloud, or type notes here (Ctrl+Enter reveals)"))
        self.reveal_button = QPushButton(self.tr("Reveal answer (Space)"))
        self.reveal_button.clicked.connect(self.reveal)
        grades = QHBoxLayout()
        self.grade_buttons = []
        for n, name in enumerate([self.tr("Again"), self.tr("Hard"), self.tr("Good"), self.tr("Easy")], start=1):
            button = QPushButton(f"{name} ({n})")
            button.clicked.connect(lambda _=False, r=n: self.grade(r))
            grades.addWidget(button)
            self.grade_buttons.append(button)
        self.end_button = QPushButton(self.tr("End now"))
        self.end_button.clicked.connect(self.finish)
        grades.addWidget(self.end_button)
        layout = QVBoxLayout(page)
        layout.addLayout(top)
        layout.addWidget(self.question, 3)
        layout.addWidget(self.notes, 1)
        layout.addWidget(self.reveal_button)
        layout.addLayout(grades)
        return page

    def _summary_page(self) -> QWidget:
        page = QWidget()
        self.summary_view = LocalTextBrowser()
        again = QPushButton(self.tr("New mock interview"))
        again.clicked.connect(self._back_to_setup)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(again)
        buttons.addWidget(close)
        layout = QVBoxLayout(page)
        layout.addWidget(self.summary_view, 1)
        layout.addLayout(buttons)
        return page

    def _topics_loaded(self, topics) -> None:
        zh = self.ctx.language == "zh_CN"
        for area_id, title_en, title_zh in topics:
            item = QListWidgetItem((title_zh or title_en) if zh else title_en)
            item.setData(Qt.UserRole, area_id)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Unchecked)
            self.topic_list.addItem(item)

    def _load_history(self) -> None:
        from studio.core.mock import mock_history

        self.ctx.tasks.run(lambda col: mock_history(col)[:20], self._show_history)

    def _show_history(self, sessions: list[dict]) -> None:
        if not sessions:
            self.history.setHtml("<p>" + self.tr("No mock interviews yet.") + "</p>")
            return
        rows = []
        for m in sessions:
            s = m["summary"]
            weakest = ", ".join(w["node"] for w in s.get("weakest_topics", [])[:3])
            rows.append(f"<tr><td>{m['started_at']:%Y-%m-%d %H:%M}</td><td>{s.get('answered', 0)}/{s.get('asked', 0)}</td>"
                        f"<td>{s.get('average_grade', 0)}</td><td>{s.get('average_seconds', 0)}s</td>"
                        f"<td>{html.escape(weakest)}</td></tr>")
        titles = [self.tr("When (UTC)"), self.tr("Answered"), self.tr("Average grade"), self.tr("Average time"),
                  self.tr("Weakest topics")]
        head = "<tr>" + "".join(f"<th>{t}</th>" for t in titles) + "</tr>"
        self.history.setHtml(f"<table cellpadding='4'>{head}{''.join(rows)}</table>")

    # --- flow ---------------------------------------------------------------------------
    def checked_topics(self) -> list[str]:
        return [self.topic_list.item(i).data(Qt.UserRole) for i in range(self.topic_list.count())
                if self.topic_list.item(i).checkState() == Qt.Checked]

    def start(self) -> None:
        from studio.core.mock import start_mock

        topics, count, seconds = self.checked_topics(), self.count.value(), int(self.minutes.value() * 60)
        self.setup_error.clear()
        self.ctx.tasks.run(lambda col: start_mock(col, topics, count, seconds), self._started,
                           lambda exc: self.setup_error.setText(str(exc)))

    def _started(self, mock) -> None:
        self.mock = mock
        self.pages.setCurrentIndex(1)
        self._load_current()

    def _load_current(self) -> None:
        from studio.core.review import ReviewQueue

        card_id = self.mock.current_card_id()
        if card_id is None:
            self.finish()
            return
        self.ctx.tasks.run(lambda col: ReviewQueue(col).get(card_id), self._show_question)

    def _show_question(self, card) -> None:
        self.card, self.revealed = card, False
        self.notes.clear()
        self.notes.setReadOnly(False)
        self.progress.setText(self.tr("Question %1 of %2").replace("%1", str(len(self.mock.answers) + 1))
                              .replace("%2", str(len(self.mock.card_ids))))
        self._render()
        self.reveal_button.setVisible(True)
        for button in self.grade_buttons:
            button.setVisible(False)
        self.started_at = time.monotonic()
        self._tick()
        self.timer.start()
        self.setFocus()

    def _render(self) -> None:
        from studio.core.markdown_render import render_markdown
        from studio.ui.panes.review_pane import card_markdown

        text = card_markdown(self.card, self.ctx.settings.get("card_language"), self.revealed)
        self.question.setHtml(f"<p style='color:gray'>{html.escape(self.card.node_id or '')}</p>"
                              + render_markdown(text, dark=self.question.dark).html)

    def elapsed(self) -> float:
        return time.monotonic() - self.started_at

    def _tick(self) -> None:
        left = self.mock.question_seconds - self.elapsed() if self.mock else 0
        if left >= 0:
            self.countdown.setText(f"{int(left) // 60:02d}:{int(left) % 60:02d}")
            self.countdown.setStyleSheet("font-size: 22px; font-weight: 600;")
        else:
            over = int(-left)
            self.countdown.setText(self.tr("Over time %1").replace("%1", f"+{over // 60:02d}:{over % 60:02d}"))
            self.countdown.setStyleSheet(f"font-size: 22px; font-weight: 600; color: {theme.color('danger')};")

    def _space(self) -> None:
        if self.pages.currentIndex() == 1 and not self.notes.hasFocus():
            self.reveal()

    def reveal(self) -> None:
        if self.card is None or self.revealed:
            return
        self.revealed = True
        self.answer_seconds = self.elapsed()
        self.timer.stop()
        self.notes.setReadOnly(True)
        self._render()
        self.reveal_button.setVisible(False)
        for button in self.grade_buttons:
            button.setVisible(True)
        self.setFocus()

    def grade(self, rating: int) -> None:
        from studio.core.mock import answer_mock

        if self.card is None or not self.revealed or self.pages.currentIndex() != 1:
            return
        mock, seconds, notes = self.mock, self.answer_seconds, self.notes.toPlainText()
        self.card = None

        def done(_):
            self.ctx.bus.data_changed.emit("reviews")
            self._load_current()

        self.ctx.tasks.run(lambda col: answer_mock(col, mock, rating, seconds, notes), done)

    def finish(self) -> None:
        from studio.core.mock import finish_mock

        if self.mock is None:
            return
        self.timer.stop()
        mock, self.card = self.mock, None
        self.ctx.tasks.run(lambda col: finish_mock(col, mock), self._show_summary)

    def _show_summary(self, summary: dict) -> None:
        self.summary = summary
        self.mock = None
        names = {1: self.tr("Again"), 2: self.tr("Hard"), 3: self.tr("Good"), 4: self.tr("Easy")}
        rows = "".join(
            f"<tr><td>{n}</td><td>{html.escape(q['node'])}</td><td>{names[q['rating']]}</td>"
            f"<td{' style=color:' + theme.color('danger') if q['over_time'] else ''}>{q['seconds']}s</td>"
            f"<td>{html.escape(q['notes'][:80])}</td></tr>"
            for n, q in enumerate(summary["questions"], start=1))
        weakest = "".join(f"<li>{html.escape(w['node'])}: {w['average_grade']}</li>" for w in summary["weakest_topics"])
        line = (self.tr("Answered %1 of %2; average grade %3; average time %4 s")
                .replace("%1", str(summary["answered"])).replace("%2", str(summary["asked"]))
                .replace("%3", str(summary["average_grade"])).replace("%4", str(summary["average_seconds"])))
        titles = ["#", self.tr("Topic"), self.tr("Grade"), self.tr("Time"), self.tr("Notes")]
        head = "<tr>" + "".join(f"<th>{t}</th>" for t in titles) + "</tr>"
        self.summary_view.setHtml(
            "<h2>" + self.tr("Mock interview summary") + f"</h2><p>{line}</p>"
            f"<table cellpadding='4'>{head}{rows}</table>"
            "<h3>" + self.tr("Weakest topics") + f"</h3><ul>{weakest}</ul>")
        self.pages.setCurrentIndex(2)
        self._load_history()

    def _back_to_setup(self) -> None:
        self.pages.setCurrentIndex(0)
