"""The card editor: create or edit a card (question/answer or cloze) with a live preview.

The preview renders exactly what the Review pane will show, in the card language the
user chose. Saving goes through the database worker; a card the user cannot save
(no question, no answer, a cloze without a deletion) gets a message, not a traceback.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext
from studio.ui.local_browser import LocalTextBrowser, open_web_link


class CardEditor(QDialog):
    saved = Signal(list)  # the ids of the cards written

    def __init__(self, ctx: AppContext, card_id: int | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.card_id = card_id
        self.setWindowTitle(self.tr("Edit card") if card_id else self.tr("New card"))
        self.resize(900, 600)
        self.kind = QComboBox()
        self.kind.addItem(self.tr("Question and answer"), "qa")
        self.kind.addItem(self.tr("Cloze ({{c1::...}})"), "cloze")
        self.fields = {name: QPlainTextEdit() for name in ("q_en", "a_en", "q_zh", "a_zh")}
        self.node = QLineEdit()
        self.node.setPlaceholderText(self.tr("roadmap node id, e.g. kernels.triton-model"))
        self.tags = QLineEdit()
        self.tags.setPlaceholderText(self.tr("tags separated by spaces"))
        form = QFormLayout()
        form.addRow(self.tr("Type"), self.kind)
        form.addRow(self.tr("Question (English)"), self.fields["q_en"])
        form.addRow(self.tr("Answer (English)"), self.fields["a_en"])
        form.addRow(self.tr("Question (Chinese)"), self.fields["q_zh"])
        form.addRow(self.tr("Answer (Chinese)"), self.fields["a_zh"])
        form.addRow(self.tr("Roadmap node"), self.node)
        form.addRow(self.tr("Tags"), self.tags)
        left = QWidget()
        left.setLayout(form)
        self.preview = LocalTextBrowser()
        self.preview.anchorClicked.connect(open_web_link)
        self.preview.theme_changed.connect(self.update_preview)
        splitter = QSplitter(Qt.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(self.preview)
        splitter.setSizes([450, 450])
        self.error = QLabel()
        self.error.setProperty("role", "error")  # coloured by the theme's style sheet
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        bottom = QHBoxLayout()
        bottom.addWidget(self.error, 1)
        bottom.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addLayout(bottom)
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(self.update_preview)
        for edit in self.fields.values():
            edit.textChanged.connect(self._timer.start)
        self.kind.currentIndexChanged.connect(self._timer.start)
        if card_id is not None:
            self.setEnabled(False)
            from studio.core.review import ReviewQueue

            ctx.tasks.run(lambda col: ReviewQueue(col).get(card_id), self._loaded)
        self.update_preview()

    def _loaded(self, card) -> None:
        self.setEnabled(True)
        if card is None:
            self.error.setText(self.tr("This card no longer exists."))
            return
        for name, edit in self.fields.items():
            edit.setPlainText(getattr(card, name) or "")
        self.kind.setCurrentIndex(max(0, self.kind.findData(card.kind)))
        self.kind.setEnabled(False)  # a cloze card's ordinals are fixed once created
        self.node.setText(card.node_id or "")
        self.tags.setText(card.tags or "")
        self.update_preview()

    def draft(self):
        from studio.core.cards import CardDraft

        text = {name: edit.toPlainText() for name, edit in self.fields.items()}
        return CardDraft(node_id=self.node.text().strip() or None, tags=self.tags.text().split(),
                         kind=self.kind.currentData(), **text)

    def update_preview(self) -> None:
        from types import SimpleNamespace

        from studio.core.markdown_render import render_markdown
        from studio.ui.panes.review_pane import card_markdown

        draft = self.draft()
        fake = SimpleNamespace(kind=draft.kind, cloze_ord=1, q_en=draft.q_en, a_en=draft.a_en,
                               q_zh=draft.q_zh, a_zh=draft.a_zh)
        language = self.ctx.settings.get("card_language")
        dark = self.preview.dark
        front = render_markdown(card_markdown(fake, language, False), dark=dark).html
        back = render_markdown(card_markdown(fake, language, True), dark=dark).html
        front_title, back_title = self.tr("Front"), self.tr("Back")
        self.preview.setHtml(f"<h3>{front_title}</h3>{front}<hr/><h3>{back_title}</h3>{back}")

    def save(self) -> None:
        from studio.core.cards import create_card, update_card

        draft, card_id = self.draft(), self.card_id

        def write(col):
            if card_id is None:
                return create_card(col, draft)
            update_card(col, card_id, draft)
            return [card_id]

        self.error.clear()
        self.ctx.tasks.run(write, self._saved, lambda exc: self.error.setText(str(exc)))

    def _saved(self, ids: list[int]) -> None:
        self.saved.emit(ids)
        self.ctx.bus.data_changed.emit("cards")
        self.accept()
