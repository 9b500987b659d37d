"""Review settings: daily limits, desired retention, card language, mock question time, FSRS parameters.

Limits and retention live in the collection (they shape scheduling); the card language
and the default mock-interview countdown are UI preferences kept in the settings file.

FSRS parameters (issue #28): once the log holds MIN_REVIEWS answers, "Optimise" fits
parameters to it with the fsrs package's optimizer in a child process
(`python -m studio.core.optimise --db`, run through QProcess: the GUI neither blocks nor
imports torch). The child's last line of output is one JSON object (studio.core.optimise.
parse_output reads it); the dialog shows log loss and RMSE with the parameters in use and
with the fitted ones. "Use these parameters" or "Use the default parameters" only marks the
choice: it is stored with the other settings on OK (the review session then starts again
with it), and Cancel keeps what was there.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QProcess, QProcessEnvironment, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext

DEFAULT_MOCK_SECONDS = 180
OPTIMISE_TIMEOUT_S = 900  # a fit still running then is stopped and said so


def mock_seconds(ctx: AppContext) -> int:
    return int(ctx.settings.get("mock_question_seconds") or DEFAULT_MOCK_SECONDS)


class ReviewSettingsDialog(QDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(self.tr("Review settings"))
        self.setMinimumWidth(560)
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
        layout.addWidget(self._parameters_box())
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.setEnabled(False)
        from studio.core.optimise import review_count
        from studio.core.review import PARAMETERS_SETTING, ReviewQueue

        ctx.tasks.run(lambda col: (ReviewQueue(col).limits(), review_count(col),
                                   col.get_setting(PARAMETERS_SETTING, None)), self._loaded)

    # --- FSRS parameters ---------------------------------------------------------------
    def _parameters_box(self) -> QGroupBox:
        from studio.core.optimise import optimiser_command

        self.command = optimiser_command  # db path -> argv of the child (tests give another)
        self.process: QProcess | None = None
        self.reviews = 0
        self.stored = None  # the fitted parameters in use (the stored setting), or None: the defaults
        self.fit = None  # the last fit's result (studio.core.optimise.Fit)
        self.pending: tuple | None = None  # ("apply", Fit) or ("reset",): stored on OK
        self._stopped = False
        box = QGroupBox(self.tr("FSRS parameters"))
        self.parameters_label = QLabel()
        self.parameters_label.setWordWrap(True)
        self.optimise_button = QPushButton(self.tr("Optimise"))
        self.optimise_button.setToolTip(self.tr(
            "Fit the parameters of the memory model to your own review log (fsrs's optimizer, in a separate "
            "process). Nothing changes until you choose to use the result and press OK."))
        self.optimise_button.clicked.connect(self.optimise)
        self.default_button = QPushButton(self.tr("Use the default parameters"))
        self.default_button.clicked.connect(self.use_defaults)
        self.optimise_progress = QProgressBar()
        self.optimise_progress.setRange(0, 0)
        self.optimise_progress.hide()
        self.fit_label = QLabel()
        self.fit_label.setWordWrap(True)
        self.fit_label.hide()
        self.use_fit_button = QPushButton(self.tr("Use these parameters"))
        self.use_fit_button.clicked.connect(self.use_fit)
        self.use_fit_button.hide()
        row = QHBoxLayout()
        row.addWidget(self.optimise_button)
        row.addWidget(self.default_button)
        row.addStretch(1)
        fit_row = QHBoxLayout()
        fit_row.addWidget(self.use_fit_button)
        fit_row.addStretch(1)
        inner = QVBoxLayout(box)
        inner.addWidget(self.parameters_label)
        inner.addLayout(row)
        inner.addWidget(self.optimise_progress)
        inner.addWidget(self.fit_label)
        inner.addLayout(fit_row)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._timed_out)
        return box

    def _show_parameters(self) -> None:
        """What is in use, what OK will store, and whether Optimise is possible yet."""
        from studio.core.optimise import MIN_REVIEWS

        running = self.process is not None
        if self.pending and self.pending[0] == "apply":
            text = self.tr("On OK: the fitted parameters (%1 reviews).").replace("%1", str(self.pending[1].reviews))
        elif self.pending:
            text = self.tr("On OK: the default parameters.")
        elif self.stored:
            when = str(self.stored.get("fitted_at", "")).replace("T", " ")
            text = (self.tr("In use: parameters fitted to %1 reviews on %2.")
                    .replace("%1", str(self.stored.get("reviews", "?"))).replace("%2", when or "?"))
        else:
            text = self.tr("In use: the default parameters.")
        missing = MIN_REVIEWS - self.reviews
        if missing > 0:
            text += " " + (self.tr("Optimise needs at least %1 reviews: you have %2, %3 more to go.")
                           .replace("%1", str(MIN_REVIEWS)).replace("%2", str(self.reviews))
                           .replace("%3", str(missing)))
        self.parameters_label.setText(text)
        self.optimise_button.setText(self.tr("Stop") if running else self.tr("Optimise"))
        self.optimise_button.setEnabled(running or missing <= 0)
        customised = (self.stored is not None and not self.pending) or bool(self.pending and
                                                                            self.pending[0] == "apply")
        self.default_button.setEnabled(not running and customised)

    def optimise(self) -> None:
        """Start the fit in a child process (or stop the one running)."""
        if self.process is not None:
            self._stopped = True
            self.process.kill()
            return
        argv = self.command(Path(self.ctx.collection.db.path))
        process = QProcess(self)
        env = QProcessEnvironment.systemEnvironment()
        import studio

        root = str(Path(studio.__file__).resolve().parent.parent)  # the child finds this studio package
        env.insert("PYTHONPATH", os.pathsep.join(p for p in (root, env.value("PYTHONPATH")) if p))
        process.setProcessEnvironment(env)
        process.finished.connect(self._optimised)
        process.errorOccurred.connect(self._process_error)
        self.process, self._stopped, self.fit = process, False, None
        self.error.setText("")
        self.fit_label.setText(self.tr("Fitting the parameters to %1 reviews…").replace("%1", str(self.reviews)))
        self.fit_label.show()
        self.use_fit_button.hide()
        self.optimise_progress.show()
        self._show_parameters()
        self._timer.start(OPTIMISE_TIMEOUT_S * 1000)
        process.start(argv[0], argv[1:])

    def _timed_out(self) -> None:
        if self.process is not None:
            self._stopped = True
            self.process.kill()
            self._finish_run(self.tr("Fitting took longer than %1 s and was stopped.")
                             .replace("%1", str(OPTIMISE_TIMEOUT_S)))

    def _process_error(self, error) -> None:
        if error == QProcess.FailedToStart and self.process is not None:
            self._finish_run(self.tr("The optimiser could not be started: %1").replace(
                "%1", self.process.errorString()))

    def _optimised(self, code: int, status) -> None:
        process = self.process
        if process is None:
            return  # already reported (timed out, or failed to start)
        out = bytes(process.readAllStandardOutput()).decode("utf-8", "replace")
        err = bytes(process.readAllStandardError()).decode("utf-8", "replace")
        if self._stopped:
            self._finish_run(self.tr("Stopped; nothing changed."))
            return
        from studio.core.optimise import OptimiseFailed, parse_output

        try:
            fit = parse_output(code if status == QProcess.NormalExit else -1, out, err)
        except OptimiseFailed as exc:
            self._finish_run(self.tr("Could not optimise: %1").replace("%1", str(exc)))
            return
        self.fit = fit
        before, after = fit.before, fit.after
        text = (self.tr("Fitted to %1 reviews. Log loss: %2 now, %3 fitted. RMSE: %4 now, %5 fitted.")
                .replace("%1", str(fit.reviews)).replace("%2", f"{before.get('log_loss', float('nan')):.4f}")
                .replace("%3", f"{after.get('log_loss', float('nan')):.4f}")
                .replace("%4", f"{before.get('rmse', float('nan')):.4f}")
                .replace("%5", f"{after.get('rmse', float('nan')):.4f}"))
        if not after.get("log_loss", 0) < before.get("log_loss", 0):
            text += " " + self.tr("The fitted parameters do not predict your reviews better than those in use: "
                                  "keeping those is advised.")
        elif not after.get("rmse", 0) <= before.get("rmse", 0):
            text += " " + self.tr("The log loss is lower with the fitted parameters but the RMSE is higher: they "
                                  "predict your answers better overall, with less well calibrated probabilities.")
        self._finish_run(text, fitted=True)

    def _finish_run(self, text: str, fitted: bool = False) -> None:
        self._timer.stop()
        if self.process is not None:
            self.process.deleteLater()
        self.process = None
        self.optimise_progress.hide()
        self.fit_label.setText(text)
        self.fit_label.show()
        self.use_fit_button.setVisible(fitted)
        self.use_fit_button.setEnabled(fitted)
        self._show_parameters()
        self.adjustSize()  # the result's lines fit without clipping

    def use_fit(self) -> None:
        """The user confirmed: store the fitted parameters on OK."""
        if self.fit is not None:
            self.pending = ("apply", self.fit)
            self.use_fit_button.setEnabled(False)
            self._show_parameters()

    def use_defaults(self) -> None:
        """Back to the fsrs package's default parameters on OK."""
        self.pending = ("reset",) if self.stored is not None else None
        if self.fit is not None:
            self.use_fit_button.setEnabled(True)
        self._show_parameters()

    def done(self, result: int) -> None:
        if self.process is not None:  # closing stops a fit still running
            self._stopped = True
            self.process.kill()
            self.process.waitForFinished(3000)
        super().done(result)

    # --- loading and saving ------------------------------------------------------------
    def _loaded(self, loaded) -> None:
        limits, self.reviews, stored = loaded
        self.stored = stored if isinstance(stored, dict) and stored.get("parameters") else None
        self.new_per_day.setValue(int(limits["new_per_day"]))
        self.reviews_per_day.setValue(int(limits["reviews_per_day"]))
        self.retention.setValue(float(limits["desired_retention"]))
        self._show_parameters()
        self.setEnabled(True)

    def save(self) -> None:
        from studio.core.optimise import apply_parameters, reset_parameters
        from studio.core.review import ReviewQueue

        values = dict(new_per_day=self.new_per_day.value(), reviews_per_day=self.reviews_per_day.value(),
                      desired_retention=round(self.retention.value(), 2))
        pending = self.pending
        self.ctx.settings.set("card_language", self.language.currentData())
        self.ctx.settings.set("mock_question_seconds", int(self.mock_minutes.value() * 60))

        def store(col) -> None:
            ReviewQueue(col).set_limits(**values)
            if pending and pending[0] == "apply":
                apply_parameters(col, pending[1])
            elif pending:
                reset_parameters(col)

        self.ctx.tasks.run(store, lambda _: self.accept(), lambda exc: self.error.setText(str(exc)))
