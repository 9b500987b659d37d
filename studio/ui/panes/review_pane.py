"""The Review pane: FSRS review of the due queue, a roadmap subtree, a tag or a search.

Space or Enter shows the answer, 1-4 grade it (each button shows its next interval),
Ctrl+Z undoes the last answer; the current card can be suspended, buried, flagged or
edited in place. Every answer is committed by the database worker before the next
card is fetched. The card browser, the mock interview and the review settings open
from here as dialogs.
"""

from __future__ import annotations

import html
import time

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QFrame,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.review import RATINGS, QueueScope, ReviewQueue, format_interval
from studio.ui.context import AppContext
from studio.ui.local_browser import LocalTextBrowser, open_web_link


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


from studio.ui.theme import FLAGS as FLAG_COLOURS  # noqa: E402 (kept under its old name)


def _card_with_context(col, queue, card):
    """The card to show, the queue's counts, and where the card was asked in interviews."""
    from studio.core.interviews import asked_in

    asked = asked_in(col, card.id) if card is not None and card.source == "interview" else []
    return card, queue.counts(), asked


class ReviewPane(QWidget):
    pane_id = "review"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.scope = QueueScope()
        self.queue: ReviewQueue | None = None
        self.card = None
        self.asked: list[dict] = []
        self.revealed = False
        self.shown_at = 0.0
        self.counts_label = QLabel()
        self.scope_label = QLabel()
        self.browser = LocalTextBrowser()
        self.browser.anchorClicked.connect(open_web_link)
        self.browser.theme_changed.connect(lambda _dark: self._render() if self.card is not None else None)
        self.show_button = QPushButton(self.tr("Show answer (Space)"))
        self.show_button.clicked.connect(self.reveal)
        names = [self.tr("Again"), self.tr("Hard"), self.tr("Good"), self.tr("Easy")]
        self.grade_buttons = []
        grades = QHBoxLayout()
        for n, (rating, name) in enumerate(zip(RATINGS, names), start=1):
            button = QPushButton(name)
            button.setProperty("base", f"{name} ({n})")
            button.setProperty("grade", str(n))  # its colour from the theme's grade colours
            button.setMinimumHeight(44)
            button.clicked.connect(lambda _=False, r=rating: self.grade(r))
            grades.addWidget(button)
            self.grade_buttons.append(button)
        self.undo_button = QPushButton(self.tr("Undo (Ctrl+Z)"))
        self.undo_button.clicked.connect(self.undo)
        self.all_button = QPushButton(self.tr("Review all due"))
        self.all_button.clicked.connect(lambda: self.start(QueueScope()))
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(self.tr("Review a tag or search, e.g. tag:triton or node:kernels"))
        self.search_edit.returnPressed.connect(self._search_session)
        top = QHBoxLayout()
        top.addWidget(self.counts_label, 1)
        top.addWidget(self.scope_label)
        top.addWidget(self.all_button)
        top.addWidget(self.undo_button)
        tools = QHBoxLayout()
        tools.addWidget(self.search_edit, 1)
        self.browse_button = QPushButton(self.tr("Browse cards"))
        self.browse_button.clicked.connect(self.open_browser)
        self.mock_button = QPushButton(self.tr("Mock interview"))
        self.mock_button.clicked.connect(self.open_mock)
        self.settings_button = QPushButton(self.tr("Review settings"))
        self.settings_button.clicked.connect(self.open_settings)
        self.new_button = QPushButton(self.tr("New card"))
        self.new_button.clicked.connect(lambda: self.edit_card(None))
        for button in (self.new_button, self.browse_button, self.mock_button, self.settings_button):
            tools.addWidget(button)
        actions = QHBoxLayout()
        self.edit_button = QPushButton(self.tr("Edit (E)"))
        self.edit_button.clicked.connect(lambda: self.edit_card(self.card.id if self.card else None))
        self.suspend_button = QPushButton(self.tr("Suspend (@)"))
        self.suspend_button.clicked.connect(self.suspend_current)
        self.bury_button = QPushButton(self.tr("Bury (-)"))
        self.bury_button.clicked.connect(self.bury_current)
        self.flag_button = QToolButton()
        self.flag_button.setText(self.tr("Flag"))
        self.flag_button.setPopupMode(QToolButton.InstantPopup)
        flag_menu = QMenu(self.flag_button)
        flag_names = [self.tr("No flag"), self.tr("Red"), self.tr("Orange"), self.tr("Green"), self.tr("Blue")]
        for flag, name in enumerate(flag_names):
            flag_menu.addAction(name, lambda f=flag: self.flag_current(f))
        self.flag_button.setMenu(flag_menu)
        for widget in (self.edit_button, self.suspend_button, self.bury_button, self.flag_button):
            actions.addWidget(widget)
        actions.addStretch(1)
        from studio.ui import theme

        # The card: centred, about MEASURE_CH characters a line, in the question's type size.
        font = self.browser.font()
        font.setPixelSize(theme.TYPE["question"] - 3)
        self.browser.setFont(font)
        self.browser.setFrameShape(QFrame.NoFrame)
        margin = theme.SPACE["xl"]
        self.browser.document().setDocumentMargin(margin)
        self.browser.setMaximumWidth(self.browser.fontMetrics().averageCharWidth() * theme.MEASURE_CH + 2 * margin + 24)
        self.show_button.setProperty("primary", True)
        self.show_button.setMinimumHeight(36)
        bar = QFrame()
        bar.setObjectName("gradeBar")
        bar_row = QVBoxLayout(bar)
        bar_row.setContentsMargins(theme.SPACE["sm"], theme.SPACE["sm"], theme.SPACE["sm"], theme.SPACE["sm"])
        bar_row.addWidget(self.show_button)
        bar_row.addLayout(grades)
        bar.setMaximumWidth(self.browser.maximumWidth())
        card = QVBoxLayout()
        card.addWidget(self.browser, 1)
        card.addWidget(bar)
        centre = QHBoxLayout()
        centre.addStretch(1)
        centre.addLayout(card, 100)
        centre.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(tools)
        layout.addLayout(actions)
        layout.addLayout(centre, 1)
        for key in ("Space", "Return", "Enter"):
            QShortcut(QKeySequence(key), self, self._space, context=Qt.WidgetWithChildrenShortcut)
        for n, rating in enumerate(RATINGS, start=1):
            QShortcut(QKeySequence(str(n)), self, lambda r=rating: self._grade_key(r),
                      context=Qt.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence.Undo, self, self.undo, context=Qt.WidgetWithChildrenShortcut)
        for key, slot in (("E", lambda: self.edit_card(self.card.id) if self.card else None),
                          ("@", self.suspend_current), ("-", self.bury_current)):
            QShortcut(QKeySequence(key), self, slot, context=Qt.WidgetWithChildrenShortcut)
        self.dialogs: list[QWidget] = []
        self._loading = False
        ctx.bus.review_scope.connect(self.start)
        ctx.bus.data_changed.connect(self._data_changed)
        self.start(QueueScope())

    # --- session -----------------------------------------------------------------------
    def start(self, scope: QueueScope) -> None:
        self.scope = scope
        self.queue = ReviewQueue(self.ctx.collection, scope)
        if scope.node_ids is not None:
            self.scope_label.setText(self.tr("Session: roadmap node (%1 nodes)").replace("%1", str(len(scope.node_ids))))
        elif scope.tag:
            self.scope_label.setText(self.tr("Session: tag %1").replace("%1", scope.tag))
        elif scope.search:
            self.scope_label.setText(self.tr("Session: search %1").replace("%1", scope.search))
        elif scope.card_ids is not None:
            self.scope_label.setText(self.tr("Session: %1 selected cards").replace("%1", str(len(scope.card_ids))))
        else:
            self.scope_label.setText(self.tr("Session: all due cards"))
        self.next_card()

    def refresh(self) -> None:
        if self.card is None:
            self.next_card()

    def _search_session(self) -> None:
        text = self.search_edit.text().strip()
        self.start(QueueScope(search=text) if text else QueueScope())

    def _data_changed(self, what: str) -> None:
        """Cards added or graded elsewhere (editor, browser, mock) may end an empty session."""
        if what == "cards" and self.queue is not None:
            self.queue.invalidate()  # its tallies only follow answers given through it
        if what in ("cards", "reviews") and self.card is None and not self._loading and self.queue is not None:
            self.next_card()

    def next_card(self) -> None:
        queue = self.queue
        self._loading = True
        self.ctx.tasks.run(lambda col: _card_with_context(col, queue, queue.next_card()), self._show_card,
                           self._session_failed)

    def _session_failed(self, error: Exception) -> None:
        self.card, self._loading = None, False
        self._buttons(False, False)
        self.browser.setHtml("<p>" + self.tr("This session cannot start: %1").replace("%1", str(error)) + "</p>")

    def _show_card(self, result) -> None:
        card, counts, self.asked = result
        self.card, self.revealed, self._loading = card, False, False
        self.counts_label.setText(
            self.tr("New %1 · Learning %2 · Review %3")
            .replace("%1", str(counts["new"])).replace("%2", str(counts["learning"])).replace("%3", str(counts["review"]))
        )
        self.undo_button.setEnabled(self.queue.can_undo())
        if card is None:
            self.browser.setHtml("<h2>" + self.tr("Congratulations! Nothing is due in this session.") + "</h2><p>"
                                 + self.tr("Study ahead from Today (Ctrl+0), review a tag or search above, or add "
                                           "cards with New card.") + "</p>")
            self._buttons(False, False)
            self._card_actions(False)
            return
        self._card_actions(True)
        self.shown_at = time.monotonic()
        self._render()
        self._buttons(True, False)
        self.setFocus()

    def display_tags(self, tags: str) -> str:
        """The card's tags as shown above it: the app's own tags in the user's language."""
        builtin = {"imported": self.tr("imported"),  # cards made by File → Import notes
                   "interview": self.tr("interview")}  # cards made from an interview's questions
        return " ".join(builtin.get(tag, tag) for tag in (tags or "").split())

    def _render(self) -> None:
        from studio.core.markdown_render import render_markdown

        text = card_markdown(self.card, self.ctx.settings.get("card_language"), self.revealed)
        flag = FLAG_COLOURS.get(self.card.flag)
        mark = f"<span style='color:{flag}'>⚑</span> " if flag else ""
        where = " · ".join(x for x in (self.card.node_id, self.display_tags(self.card.tags)) if x)
        header = f"<p style='color:gray'>{mark}{html.escape(where)}</p>"
        if self.asked:
            where = "; ".join(f"{a['company']} {a['round']} ({a['date']})".replace("  ", " ") for a in self.asked)
            asked = self.tr("Asked in: %1").replace("%1", where)
            header += f"<p style='color:gray'>{html.escape(asked)}</p>"
        self.browser.setHtml(header + render_markdown(text, dark=self.browser.dark).html)

    def _card_actions(self, enabled: bool) -> None:
        for widget in (self.edit_button, self.suspend_button, self.bury_button, self.flag_button):
            widget.setEnabled(enabled)

    def _buttons(self, show: bool, grade: bool) -> None:
        self.show_button.setVisible(show and not grade)
        for button in self.grade_buttons:
            button.setVisible(grade)

    # --- answering ----------------------------------------------------------------------
    def _space(self) -> None:
        if self.search_edit.hasFocus():
            self._search_session()
        elif self.card is not None and not self.revealed:
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

        self.ctx.tasks.run(lambda col: _card_with_context(col, queue, queue.get(queue.undo())), undone)

    # --- card actions -------------------------------------------------------------------
    def _act_on_current(self, action) -> None:
        """Run a change on the shown card, then move on to the next card."""
        if self.card is None:
            return
        card_id, queue = self.card.id, self.queue
        self.card = None

        def done(_):
            self.ctx.bus.data_changed.emit("cards")
            self.next_card()

        self.ctx.tasks.run(lambda col: action(queue, card_id), done)

    def suspend_current(self) -> None:
        self._act_on_current(lambda queue, card_id: queue.suspend(card_id))

    def bury_current(self) -> None:
        self._act_on_current(lambda queue, card_id: queue.bury(card_id))

    def flag_current(self, flag: int) -> None:
        if self.card is None:
            return
        card_id, queue = self.card.id, self.queue
        self.ctx.tasks.run(lambda col: (queue.set_flag(card_id, flag), queue.get(card_id))[1], self._reload_current)

    def _reload_current(self, card) -> None:
        if card is not None and self.card is not None and card.id == self.card.id:
            self.card = card
            self._render()

    def edit_card(self, card_id: int | None) -> None:
        from studio.ui.card_editor import CardEditor

        editor = CardEditor(self.ctx, card_id, self)
        if card_id is not None and self.card is not None and card_id == self.card.id:
            queue = self.queue
            editor.saved.connect(lambda _ids: self.ctx.tasks.run(lambda col: queue.get(card_id), self._reload_current))
        editor.show()

    def open_browser(self) -> None:
        from studio.ui.card_browser import CardBrowser

        self._open(CardBrowser(self.ctx))

    def open_mock(self) -> None:
        from studio.ui.mock_interview import MockInterviewDialog

        self._open(MockInterviewDialog(self.ctx))

    def open_settings(self) -> None:
        from studio.ui.review_settings import ReviewSettingsDialog

        dialog = ReviewSettingsDialog(self.ctx, self)
        dialog.accepted.connect(lambda: self.start(self.scope))
        dialog.show()

    def _open(self, window: QWidget) -> None:
        """Keep a top-level window alive while it is open."""
        self.dialogs = [d for d in self.dialogs if d.isVisible()]
        self.dialogs.append(window)
        window.show()
