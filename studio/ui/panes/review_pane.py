"""The Review pane: FSRS review of the due queue, a roadmap subtree or a tag.

Space or Enter shows the answer, 1-4 grade it (each button shows its next interval),
Ctrl+Z undoes the last answer. Every answer is committed by the database worker before
the next card is fetched.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.core.review import RATINGS, QueueScope, ReviewQueue, format_interval
from studio.ui.context import AppContext


def card_markdown(card, language: str, reveal: bool) -> str:
    """The Markdown shown for a card: question, and the answer once revealed."""
    from studio.core.decks import render_cloze

    langs = {"en": ("en",), "zh": ("zh",), "both": ("zh", "en")}.get(language, ("en",))
    parts = []
    for lang in langs:
        q = card.q_zh if lang == "zh" else card.q_en
        a = card.a_zh if lang == "zh" else card.a_en
        if not q:
            continue
        if card.kind == "cloze":
            q = render_cloze(q, card.cloze_ord, reveal)
        parts.append(q)
        if reveal and a:
            parts.append("---\n\n" + a)
    return "\n\n".join(parts) if parts else "_(empty card)_"


class ReviewPane(QWidget):
    pane_id = "review"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.scope = QueueScope()
        self.queue: ReviewQueue | None = None
        self.card = None
        self.revealed = False
        self.shown_at = 0.0
        self.counts_label = QLabel()
        self.scope_label = QLabel()
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.show_button = QPushButton(self.tr("Show answer (Space)"))
        self.show_button.clicked.connect(self.reveal)
        names = [self.tr("Again"), self.tr("Hard"), self.tr("Good"), self.tr("Easy")]
        self.grade_buttons = []
        grades = QHBoxLayout()
        for n, (rating, name) in enumerate(zip(RATINGS, names), start=1):
            button = QPushButton(name)
            button.setProperty("base", f"{name} ({n})")
            button.clicked.connect(lambda _=False, r=rating: self.grade(r))
            grades.addWidget(button)
            self.grade_buttons.append(button)
        self.undo_button = QPushButton(self.tr("Undo (Ctrl+Z)"))
        self.undo_button.clicked.connect(self.undo)
        self.all_button = QPushButton(self.tr("Review all due"))
        self.all_button.clicked.connect(lambda: self.start(QueueScope()))
        top = QHBoxLayout()
        top.addWidget(self.counts_label, 1)
        top.addWidget(self.scope_label)
        top.addWidget(self.all_button)
        top.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.browser, 1)
        layout.addWidget(self.show_button)
        layout.addLayout(grades)
        for key in ("Space", "Return", "Enter"):
            QShortcut(QKeySequence(key), self, self._space, context=Qt.WidgetWithChildrenShortcut)
        for n, rating in enumerate(RATINGS, start=1):
            QShortcut(QKeySequence(str(n)), self, lambda r=rating: self._grade_key(r),
                      context=Qt.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence.Undo, self, self.undo, context=Qt.WidgetWithChildrenShortcut)
        ctx.bus.review_scope.connect(self.start)
        self.start(QueueScope())

    # --- session -----------------------------------------------------------------------
    def start(self, scope: QueueScope) -> None:
        self.scope = scope
        self.queue = ReviewQueue(self.ctx.collection, scope)
        if scope.node_ids is not None:
            self.scope_label.setText(self.tr("Session: roadmap node (%1 nodes)").replace("%1", str(len(scope.node_ids))))
        elif scope.tag:
            self.scope_label.setText(self.tr("Session: tag %1").replace("%1", scope.tag))
        elif scope.card_ids is not None:
            self.scope_label.setText(self.tr("Session: %1 selected cards").replace("%1", str(len(scope.card_ids))))
        else:
            self.scope_label.setText(self.tr("Session: all due cards"))
        self.next_card()

    def refresh(self) -> None:
        if self.card is None:
            self.next_card()

    def next_card(self) -> None:
        queue = self.queue
        self.ctx.tasks.run(lambda col: (queue.next_card(), queue.counts()), self._show_card)

    def _show_card(self, result) -> None:
        card, counts = result
        self.card, self.revealed = card, False
        self.counts_label.setText(
            self.tr("New %1 · Learning %2 · Review %3")
            .replace("%1", str(counts["new"])).replace("%2", str(counts["learning"])).replace("%3", str(counts["review"]))
        )
        self.undo_button.setEnabled(self.queue.can_undo())
        if card is None:
            self.browser.setHtml("<h2>" + self.tr("Congratulations! Nothing is due in this session.") + "</h2>")
            self._buttons(False, False)
            return
        self.shown_at = time.monotonic()
        self._render()
        self._buttons(True, False)
        self.setFocus()

    def _render(self) -> None:
        from studio.core.markdown_render import render_markdown

        text = card_markdown(self.card, self.ctx.settings.get("card_language"), self.revealed)
        header = f"<p style='color:gray'>{self.card.node_id or ''} · {self.card.tags}</p>"
        self.browser.setHtml(header + render_markdown(text).html)

    def _buttons(self, show: bool, grade: bool) -> None:
        self.show_button.setVisible(show and not grade)
        for button in self.grade_buttons:
            button.setVisible(grade)

    # --- answering ----------------------------------------------------------------------
    def _space(self) -> None:
        if self.card is not None and not self.revealed:
            self.reveal()
        elif self.card is not None:
            self.grade(RATINGS[2])

    def _grade_key(self, rating) -> None:
        if self.card is not None and self.revealed:
            self.grade(rating)

    def reveal(self) -> None:
        if self.card is None or self.revealed:
            return
        self.revealed = True
        self._render()
        intervals = self.queue.preview_intervals(self.card)
        for button, rating in zip(self.grade_buttons, RATINGS):
            button.setText(f"{button.property('base')}\n{format_interval(intervals[rating])}")
        self._buttons(True, True)

    def grade(self, rating) -> None:
        if self.card is None or not self.revealed:
            return
        card_id, queue = self.card.id, self.queue
        duration = int((time.monotonic() - self.shown_at) * 1000)
        self.card = None
        self._buttons(False, False)

        def done(_):
            self.ctx.bus.data_changed.emit("reviews")
            self.next_card()

        self.ctx.tasks.run(lambda col: queue.answer(card_id, rating, duration_ms=duration), done)

    def undo(self) -> None:
        if self.queue is None or not self.queue.can_undo():
            return
        queue = self.queue

        def undone(result):
            self.ctx.bus.data_changed.emit("reviews")
            self._show_card(result)

        self.ctx.tasks.run(lambda col: (queue.get(queue.undo()), queue.counts()), undone)
