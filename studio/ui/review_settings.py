"""Review settings: daily limits, desired retention, card language, mock question time.

Limits and retention live in the collection (they shape scheduling); the card language
and the default mock-interview countdown are UI preferences kept in the settings file.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext

DEFAULT_MOCK_SECONDS = 180


def mock_seconds(ctx: AppContext) -> int:
    return int(ctx.settings.get("mock_question_seconds") or DEFAULT_MOCK_SECONDS)


class ReviewSettingsDialog(QDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Review settings"))
        self.new_per_day = QSpinBox(maximum=9999)
        self.reviews_per_day = QSpinBox(maximum=99999)
        self.retention = QDoubleSpinBox(minimum=0.70, maximum=0.99, singleStep=0.01, decimals=2)
        self.language = QComboBox()
        for code, name in (("both", self.tr("Chinese and English")), ("zh", self.tr("Chinese")),
                           ("en", self.tr("English"))):
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(ctx.settings.get("card_language"))))
        self.mock_minutes = QDoubleSpinBox(minimum=0.5, maximum=60, singleStep=0.5, decimals=1)
        self.mock_minutes.setValue(mock_seconds(ctx) / 60)
        self.error = QLabel()
        self.error.setProperty("role", "error")  # coloured by the theme's style sheet
        form = QFormLayout()
        form.addRow(self.tr("New cards per day"), self.new_per_day)
        form.addRow(self.tr("Reviews per day"), self.reviews_per_day)
        form.addRow(self.tr("Desired retention"), self.retention)
        form.addRow(self.tr("Card language"), self.language)
        form.addRow(self.tr("Mock interview minutes per question"), self.mock_minutes)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.setEnabled(False)
        from studio.core.review import ReviewQueue

        ctx.tasks.run(lambda col: ReviewQueue(col).limits(), self._loaded)

    def _loaded(self, limits: dict) -> None:
        self.new_per_day.setValue(int(limits["new_per_day"]))
        self.reviews_per_day.setValue(int(limits["reviews_per_day"]))
        self.retention.setValue(float(limits["desired_retention"]))
        self.setEnabled(True)

    def save(self) -> None:
        from studio.core.review import ReviewQueue

        values = dict(new_per_day=self.new_per_day.value(), reviews_per_day=self.reviews_per_day.value(),
                      desired_retention=round(self.retention.value(), 2))
        self.ctx.settings.set("card_language", self.language.currentData())
        self.ctx.settings.set("mock_question_seconds", int(self.mock_minutes.value() * 60))
        self.ctx.tasks.run(lambda col: ReviewQueue(col).set_limits(**values), lambda _: self.accept(),
                           lambda exc: self.error.setText(str(exc)))
