"""The import dialog: read notes or an Anki deck, preview what was found, then import it.

Reading (`plan_import` / `plan_cards`) and writing (`apply_import` / `apply_cards`) both run
on the collection's worker; the dialog only draws. The preview lists every card and
interview row with a tick box, and every problem with its file and line, so the user
decides what goes in before anything is written. Notes are linked in place or copied,
dates without a year take the year chosen here, Anki review history is kept or dropped.
"""

from __future__ import annotations

from datetime import date
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext

MODES = ("notes", "anki")


class _Progress(QObject):
    """Carries (done, total) from the worker thread to the progress bar (a queued signal)."""

    changed = Signal(int, int)

    def report(self, done: int, total: int) -> None:
        self.changed.emit(done, total)


class ImportDialog(QDialog):
    imported = Signal(object)  # the ImportSummary

    def __init__(self, ctx: AppContext, mode: str = "notes", parent: QWidget | None = None):
        super().__init__(parent)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.ctx, self.mode = ctx, mode
        self.plan = None
        self.summary = None
        self._progress = _Progress(self)
        self._progress.changed.connect(self._show_progress)
        self.setWindowTitle(self.tr("Import notes") if mode == "notes" else self.tr("Import Anki deck"))
        self.resize(860, 620)
        self.path = QLineEdit()
        self.path.setPlaceholderText(self.tr("Markdown files or a folder") if mode == "notes"
                                     else self.tr("An .apkg file, or a CSV/TSV exported from Anki"))
        choose = QPushButton(self.tr("Choose…"))
        choose.clicked.connect(self._choose)
        self.read_button = QPushButton(self.tr("Preview"))
        self.read_button.clicked.connect(self.read)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(choose)
        row.addWidget(self.read_button)
        options = QFormLayout()
        self.choice = QButtonGroup(self)
        if mode == "notes":
            self.link = QRadioButton(self.tr("Link the notes where they are"))
            self.copy = QRadioButton(self.tr("Copy the notes into the app's data folder"))
            self.link.setChecked(True)
            box = QHBoxLayout()
            for button in (self.link, self.copy):
                self.choice.addButton(button)
                box.addWidget(button)
            box.addStretch(1)
            options.addRow(self.tr("Notes:"), box)
            self.year = QSpinBox()
            self.year.setRange(1990, 2100)
            self.year.setValue(date.today().year)
            options.addRow(self.tr("Year for dates written without one:"), self.year)
        else:
            self.keep = QRadioButton(self.tr("Keep review history (scheduled with FSRS)"))
            self.fresh = QRadioButton(self.tr("Import every card as new"))
            self.keep.setChecked(True)
            box = QHBoxLayout()
            for button in (self.keep, self.fresh):
                self.choice.addButton(button)
                box.addWidget(button)
            box.addStretch(1)
            options.addRow(self.tr("History:"), box)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Found"), self.tr("Where")])
        self.tree.setColumnWidth(0, 520)
        self.problems = QListWidget()
        self.problems_label = QLabel(self.tr("Problems"))
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.problems_label)
        lower_layout.addWidget(self.problems)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.tree)
        split.addWidget(lower)
        split.setSizes([400, 140])
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status = QLabel(self.tr("Choose what to import, then Preview."))
        self.status.setWordWrap(True)
        self.import_button = QPushButton(self.tr("Import"))
        self.import_button.setEnabled(False)
        self.import_button.clicked.connect(self.apply)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.import_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addLayout(options)
        layout.addWidget(split, 1)
        layout.addWidget(self.progress)
        layout.addLayout(buttons)

    # --- choosing ----------------------------------------------------------------------
    def _choose(self) -> None:
        if self.mode == "notes":
            chosen = QFileDialog.getExistingDirectory(self, self.tr("Choose a notes folder"))
        else:
            chosen, _ = QFileDialog.getOpenFileName(self, self.tr("Choose an Anki deck"), "",
                                                    self.tr("Anki decks (*.apkg *.csv *.tsv *.txt)"))
        if chosen:
            self.path.setText(chosen)
            self.read()

    def paths(self) -> list[Path]:
        return [Path(p.strip()) for p in self.path.text().split(";") if p.strip()]

    def _busy(self, busy: bool) -> None:
        self.read_button.setEnabled(not busy)
        self.import_button.setEnabled(not busy and self.plan is not None and self._has_anything())

    def _show_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    # --- preview -----------------------------------------------------------------------
    def read(self) -> None:
        """Read the chosen files on the worker and show what they hold."""
        paths = self.paths()
        if not paths:
            self.status.setText(self.tr("Choose a file or folder first."))
            return
        self.plan = None
        self.summary = None
        self._busy(True)
        self.progress.setRange(0, 0)
        self.status.setText(self.tr("Reading…"))
        report = self._progress.report
        if self.mode == "notes":
            from studio.core.importers.notes_import import plan_import

            self.ctx.tasks.run(lambda _col: plan_import(paths, progress=report), self._planned, self._failed)
        else:
            from studio.core.importers.anki import plan_cards

            self.ctx.tasks.run(lambda _col: plan_cards(paths[0]), self._planned, self._failed)

    def _planned(self, plan) -> None:
        self.plan = plan
        self.tree.clear()
        self.problems.clear()
        cards = plan.cards
        group = QTreeWidgetItem(self.tree, [self.tr("Cards (%1)").replace("%1", str(len(cards)))])
        group.setFlags(group.flags() | Qt.ItemIsUserCheckable | Qt.ItemIsAutoTristate)
        group.setCheckState(0, Qt.Checked)
        for planned in cards:
            if self.mode == "notes":
                question, where = planned.card.question, f"{planned.path.name}:{planned.card.line}"
            else:
                question, where = planned.question, planned.deck or planned.key
            item = QTreeWidgetItem(group, [question.replace("\n", " ")[:200], where])
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(0, Qt.Checked if planned.selected else Qt.Unchecked)
            item.setData(0, Qt.UserRole, planned)
        group.setExpanded(True)
        if self.mode == "notes":
            notes = QTreeWidgetItem(self.tree, [self.tr("Notes (%1)").replace("%1", str(len(plan.files)))])
            for path in plan.files:
                QTreeWidgetItem(notes, [path.name, str(path.parent)])
            rows = QTreeWidgetItem(self.tree, [self.tr("Interviews (%1)").replace("%1", str(len(plan.interviews)))])
            rows.setFlags(rows.flags() | Qt.ItemIsUserCheckable | Qt.ItemIsAutoTristate)
            rows.setCheckState(0, Qt.Checked)
            for planned in plan.interviews:
                label = f"{planned.row.when_text.strip()}  {planned.row.company}"
                item = QTreeWidgetItem(rows, [label, f"{planned.path.name}:{planned.row.line}"])
                item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
                item.setCheckState(0, Qt.Checked)
                item.setData(0, Qt.UserRole, planned)
            rows.setExpanded(True)
        self._show_problems(plan.problems)
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        if self._has_anything():
            self.status.setText(self.tr("Untick anything you do not want, then Import."))
        else:
            self.status.setText(self.tr("Nothing to import; see the problems below."))
        self._busy(False)

    def _has_anything(self) -> bool:
        plan = self.plan
        return bool(plan and (plan.cards or getattr(plan, "files", None) or getattr(plan, "interviews", None)))

    def _show_problems(self, problems: list[str]) -> None:
        self.problems.clear()
        self.problems.addItems(problems)
        self.problems_label.setText(self.tr("Problems (%1)").replace("%1", str(len(problems))))

    def card_items(self) -> list[QTreeWidgetItem]:
        group = self.tree.topLevelItem(0)
        return [group.child(i) for i in range(group.childCount())] if group else []

    def interview_items(self) -> list[QTreeWidgetItem]:
        if self.mode != "notes" or self.tree.topLevelItemCount() < 3:
            return []
        group = self.tree.topLevelItem(2)
        return [group.child(i) for i in range(group.childCount())]

    # --- import ------------------------------------------------------------------------
    def apply(self) -> None:
        """Write the ticked parts on the worker; the summary replaces the preview's status."""
        if self.plan is None:
            return
        for item in self.card_items() + self.interview_items():
            item.data(0, Qt.UserRole).selected = item.checkState(0) == Qt.Checked
        plan, report = self.plan, self._progress.report
        self._busy(True)
        self.import_button.setEnabled(False)
        self.status.setText(self.tr("Importing…"))
        if self.mode == "notes":
            from studio.core.importers.notes_import import apply_import

            copy, year = self.copy.isChecked(), self.year.value()
            work = partial(apply_import, plan=plan, copy=copy, year=year, progress=report)
        else:
            from studio.core.importers.anki import apply_cards

            history = "keep" if self.keep.isChecked() else "new"
            work = partial(apply_cards, plan=plan, history=history, progress=report)
        self.ctx.tasks.run(work, self._applied, self._failed)

    def _applied(self, summary) -> None:
        self.summary = summary
        self.plan = None
        self._show_problems(summary.problems)
        self.status.setText(self.tr("Imported: %1 notes, %2 new cards, %3 updated cards, %4 interviews.")
                            .replace("%1", str(summary.notes)).replace("%2", str(summary.cards))
                            .replace("%3", str(summary.cards_updated)).replace("%4", str(summary.interviews)))
        self._busy(False)
        for what in ("notes", "cards", "interviews"):
            self.ctx.bus.data_changed.emit(what)
        self.imported.emit(summary)

    def _failed(self, error: Exception) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status.setText(self.tr("Could not import: %1").replace("%1", str(error)))
        self._busy(False)


__all__ = ["ImportDialog"]
