"""The import dialog: read notes or an Anki deck, preview what was found, then import it.

Reading (`plan_import` / `plan_cards`) and writing (`apply_import` / `apply_cards`) both run
on the collection's worker; the dialog only draws. The preview lists every card and
interview row with a tick box, and every problem with its file and line, so the user
decides what goes in before anything is written. Notes are linked in place or copied,
Anki review history is kept or dropped.

The preview also shows what the import would otherwise decide on its own: the encoding of
every file that is not UTF-8, notes and Anki CSV/TSV alike (a combo box per file with a
sample line; a guess is flagged, and a change reads the files again, keeping what was
unticked), every question found twice, handled by the "same question twice" choice, and
for notes the year each file's yearless interview dates were given and why (one year can
be set for all instead).

A deck refused at a limit (archive size or expansion ratio, reading time) is not a dead end:
the dialog says which limit stopped it and offers to read that file again with the limit
raised (a value to edit, then "Read again with this limit"), where the command line names
--max-size, --max-ratio or --time-limit.

The Anki dialog also brings back reviews done in Anki (issue #28): "What: Reviews done in
Anki" takes an .apkg (exported with scheduling) or a .colpkg exported after reviewing cards
that came from this app, and adds those answers to our cards on the worker
(`studio.core.importers.anki_reviews.import_reviews`, one transaction). The result lists the
cards that gained reviews, the notes whose GUIDs match nothing here, and, when nothing
changed, why; the due counts, Today and Stats are told to refresh.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
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

MODES = ("notes", "anki", "reviews")  # "reviews": the Anki dialog with "Reviews done in Anki" chosen
GROUP_ROLE = Qt.UserRole + 1  # a top-level item's group: cards | notes | interviews | encodings | duplicates
#                                | reviewed (cards that gained reviews) | unmatched (GUIDs matching nothing)
ASSUMPTION_ROLE = Qt.UserRole + 2  # an interview group's note on the year its file's dates were given


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
        self.encodings: dict[Path, str] = {}  # the user's encoding choice per file
        from studio.core.importers.anki_limits import Limits

        self.limits = Limits()  # what reading one deck may cost, unless raised for that file
        self.raised: dict[Path, Limits] = {}  # limits the user raised to read a refused file again
        self._unticked: set[str] = set()  # keys left unticked when the preview is read again
        self._progress = _Progress(self)
        self._progress.changed.connect(self._show_progress)
        self.resize(860, 620)
        self.path = QLineEdit()
        self.path.textChanged.connect(self._path_changed)
        choose = QPushButton(self.tr("Choose…"))
        choose.clicked.connect(self._choose)
        self.read_button = QPushButton(self.tr("Preview"))
        self.read_button.clicked.connect(self.read)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(choose)
        row.addWidget(self.read_button)
        options = QFormLayout()
        self.options = options
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
            self.use_year = QCheckBox(self.tr("Use one year for all of them:"))
            self.use_year.setToolTip(self.tr(
                "Otherwise each file's dates are placed near its front matter date, else its modification "
                "time, else at their most recent past occurrence; the preview says which."))
            self.year = QSpinBox()
            self.year.setRange(1990, 2100)
            self.year.setValue(date.today().year)
            self.year.setEnabled(False)
            self.use_year.toggled.connect(self.year.setEnabled)
            self.use_year.toggled.connect(self._show_years)
            self.year.valueChanged.connect(self._show_years)
            year_box = QHBoxLayout()
            year_box.addWidget(self.use_year)
            year_box.addWidget(self.year)
            year_box.addStretch(1)
            options.addRow(self.tr("Dates without a year:"), year_box)
        else:
            self.what_cards = QRadioButton(self.tr("Cards from a deck"))
            self.what_reviews = QRadioButton(self.tr("Reviews done in Anki on cards exported from here"))
            self.what_reviews.setToolTip(self.tr(
                "After reviewing on the phone, export from Anki with scheduling (an .apkg with 'Include "
                "scheduling information', or a collection backup, .colpkg): those answers are added to the "
                "same cards here and their schedules recomputed. Importing a file twice adds nothing."))
            self.what = QButtonGroup(self)
            what_box = QHBoxLayout()
            for button in (self.what_cards, self.what_reviews):
                self.what.addButton(button)
                what_box.addWidget(button)
            what_box.addStretch(1)
            (self.what_reviews if mode == "reviews" else self.what_cards).setChecked(True)
            self.what_reviews.toggled.connect(self._what_changed)
            options.addRow(self.tr("What:"), what_box)
            self.keep = QRadioButton(self.tr("Keep review history (scheduled with FSRS)"))
            self.fresh = QRadioButton(self.tr("Import every card as new"))
            self.keep.setChecked(True)
            box = QHBoxLayout()
            for button in (self.keep, self.fresh):
                self.choice.addButton(button)
                box.addWidget(button)
            box.addStretch(1)
            options.addRow(self.tr("History:"), box)
            self.history_row = options.rowCount() - 1
        self.duplicates = QComboBox()  # notes and decks alike (issue #16: nothing merged silently)
        self.duplicates.addItem(self.tr("Keep both"), "keep_both")
        self.duplicates.addItem(self.tr("Keep the newest (an imported text replaces the collection's; "
                                        "its scheduling is kept)"), "keep_newest")
        self.duplicates.addItem(self.tr("Skip the later ones, and those already in the collection"), "skip")
        options.addRow(self.tr("Same question twice:"), self.duplicates)
        self.duplicates_row = options.rowCount() - 1
        # The preview lists what the chosen policy will do: another choice may reopen a question
        # an earlier import left out (issue #16), so the list is drawn again for it.
        self.duplicates.currentIndexChanged.connect(self._redraw_duplicates)
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
        self.limit_box = QWidget()  # shown when a deck was refused at a limit: raise it, read again
        limit_row = QHBoxLayout(self.limit_box)
        limit_row.setContentsMargins(0, 0, 0, 0)
        self.limit_label = QLabel()
        self.limit_label.setWordWrap(True)
        self.limit_value = QDoubleSpinBox()
        self.limit_value.setDecimals(0)
        self.raise_button = QPushButton(self.tr("Read again with this limit"))
        self.raise_button.clicked.connect(self.read_with_raised_limit)
        limit_row.addWidget(self.limit_label, 1)
        limit_row.addWidget(self.limit_value)
        limit_row.addWidget(self.raise_button)
        self.limit_box.hide()
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
        layout.addWidget(self.limit_box)
        layout.addWidget(self.progress)
        layout.addLayout(buttons)
        self._show_mode()

    # --- what is imported ----------------------------------------------------------------
    def _show_mode(self) -> None:
        """Title, hints, options and buttons for the chosen mode."""
        reviews = self.mode == "reviews"
        if self.mode == "notes":
            self.setWindowTitle(self.tr("Import notes"))
            self.path.setPlaceholderText(self.tr("Markdown files or a folder"))
        elif reviews:
            self.setWindowTitle(self.tr("Bring back reviews done in Anki"))
            self.path.setPlaceholderText(self.tr("An .apkg (with scheduling) or .colpkg exported from Anki "
                                                 "after reviewing"))
        else:
            self.setWindowTitle(self.tr("Import Anki deck"))
            self.path.setPlaceholderText(self.tr("An .apkg file, or a CSV/TSV exported from Anki"))
        if self.mode != "notes":
            self.options.setRowVisible(self.history_row, not reviews)
            self.options.setRowVisible(self.duplicates_row, not reviews)
        self.read_button.setVisible(not reviews)
        self.import_button.setText(self.tr("Bring back reviews") if reviews else self.tr("Import"))
        self.tree.setHeaderLabels([self.tr("Card") if reviews else self.tr("Found"),
                                   self.tr("Reviews added") if reviews else self.tr("Where")])
        if reviews:
            self.status.setText(self.tr("Choose the file exported from Anki, then Bring back reviews. "
                                        "Nothing changes unless the whole file is read."))
        else:
            self.status.setText(self.tr("Choose what to import, then Preview."))
        self._busy(False)

    def _what_changed(self, reviews: bool) -> None:
        self.mode = "reviews" if reviews else "anki"
        self.plan = None
        self.summary = None
        self.tree.clear()
        self.limit_box.hide()
        self._show_problems([])
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self._show_mode()

    def _path_changed(self, _text: str = "") -> None:
        if self.mode == "reviews":
            self._busy(False)

    # --- choosing ----------------------------------------------------------------------
    def _choose(self) -> None:
        if self.mode == "notes":
            chosen = QFileDialog.getExistingDirectory(self, self.tr("Choose a notes folder"))
        elif self.mode == "reviews":
            chosen, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a file exported from Anki"), "",
                                                    self.tr("Anki packages (*.apkg *.colpkg)"))
            if chosen:
                self.path.setText(chosen)
            return
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
        if self.mode == "reviews":
            self.import_button.setEnabled(not busy and bool(self.paths()))
            for button in (self.what_cards, self.what_reviews):
                button.setEnabled(not busy)
            return
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
        self.limit_box.hide()
        self._busy(True)
        self.progress.setRange(0, 0)
        self.status.setText(self.tr("Reading…"))
        report = self._progress.report
        if self.mode == "notes":
            from studio.core.importers.notes_import import plan_import

            chosen = dict(self.encodings)
            self.ctx.tasks.run(lambda col: plan_import(paths, progress=report, col=col, guess=True,
                                                       encodings=chosen),
                               self._planned, self._failed)
        else:
            from studio.core.importers.anki import plan_cards

            chosen = dict(self.encodings)
            limits = self.raised.get(paths[0], self.limits)
            self.ctx.tasks.run(lambda col: plan_cards(paths[0], limits, col=col, guess=True, encodings=chosen),
                               self._planned, self._failed)

    def _planned(self, plan) -> None:
        self.plan = plan
        self.tree.clear()
        self.problems.clear()
        cards = plan.cards
        group = self._group("cards", self.tr("Cards (%1)").replace("%1", str(len(cards))), checkable=True)
        for planned in cards:
            if self.mode == "notes":
                question, where = planned.card.question, f"{planned.path.name}:{planned.card.line}"
            else:
                question, where = planned.question, planned.deck or planned.key
            self._check_item(group, [question.replace("\n", " ")[:200], where], planned)
        group.setExpanded(True)
        if self.mode == "notes":
            self._show_notes_parts(plan)
        self._show_encodings(plan)
        self._show_duplicates(plan)
        self._unticked = set()
        listed = set(getattr(plan, "duplicate_lines", []) or []) if self.mode != "notes" else set()
        limit = getattr(plan, "limit", None)
        problems = [p for p in plan.problems if p not in listed]
        if limit is not None:  # the GUI's way past a limit is the box below, not a command-line flag
            problems = [plan.refusal + self.tr(" (a limit: see below to read it again with a higher one)")
                        if p == plan.limit_line else p for p in problems]
        self._show_problems(problems)
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        if limit is not None:
            self._offer_higher_limit(limit)
            self.status.setText(self.tr("Refused at a limit; nothing was imported. If you trust this file, "
                                        "raise the limit below and read it again."))
        elif not self._has_anything():
            self.status.setText(self.tr("Nothing to import; see the problems below."))
        elif any(e.how == "guessed" for e in plan.encodings.values()):
            self.status.setText(self.tr("The encoding of some files is a guess: check their sample lines "
                                        "under Encodings, then Import."))
        else:
            self.status.setText(self.tr("Untick anything you do not want, then Import."))
        self._busy(False)

    def _offer_higher_limit(self, limit) -> None:
        """Say which limit stopped the file and offer a raised value for a second reading."""
        value = f"{limit.value:g}"
        if limit.name == "max_entry_mb":
            what = self.tr("The collection inside this deck expands past the limit of %1 MB.").replace("%1", value)
            suffix = " MB"
        elif limit.name == "max_ratio":
            what = self.tr("The collection inside this deck expands more than %1 times its packed size, "
                           "as archive bombs do.").replace("%1", value)
            suffix = " ×"
        else:
            what = self.tr("Reading this file took longer than the limit of %1 s.").replace("%1", value)
            suffix = " s"
        self.limit_label.setText(what + " " + self.tr("If you trust it, read it again with a higher limit:"))
        self.limit_value.setSuffix(suffix)
        self.limit_value.setRange(limit.value + 1, max(limit.raised, limit.value) * 1000)
        self.limit_value.setValue(limit.raised)
        self.limit_value.setProperty("limit_name", limit.name)
        self.limit_box.show()

    def read_with_raised_limit(self) -> None:
        """Read the refused file again with the limit set in the box (for this file only)."""
        paths = self.paths()
        name = self.limit_value.property("limit_name")
        if not paths or not name:
            return
        value = self.limit_value.value()
        base = self.raised.get(paths[0], self.limits)
        self.raised[paths[0]] = replace(base, **{name: int(value) if name == "max_ratio" else value})
        self.read()

    def _group(self, name: str, label: str, checkable: bool = False) -> QTreeWidgetItem:
        group = QTreeWidgetItem(self.tree, [label])
        group.setData(0, GROUP_ROLE, name)
        if checkable:
            group.setFlags(group.flags() | Qt.ItemIsUserCheckable | Qt.ItemIsAutoTristate)
            group.setCheckState(0, Qt.Checked)
        return group

    def _check_item(self, parent: QTreeWidgetItem, texts: list[str], planned) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, texts)
        item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
        ticked = planned.selected and planned.key not in self._unticked
        item.setCheckState(0, Qt.Checked if ticked else Qt.Unchecked)
        item.setData(0, Qt.UserRole, planned)
        return item

    def _show_notes_parts(self, plan) -> None:
        notes = self._group("notes", self.tr("Notes (%1)").replace("%1", str(len(plan.files))))
        for path in plan.files:
            QTreeWidgetItem(notes, [path.name, str(path.parent)])
        rows = self._group("interviews", self.tr("Interviews (%1)").replace("%1", str(len(plan.interviews))),
                           checkable=True)
        for assumption in plan.assumptions:
            note = QTreeWidgetItem(rows, [""])
            note.setData(0, ASSUMPTION_ROLE, assumption)
            note.setFirstColumnSpanned(True)
            font = note.font(0)
            font.setItalic(True)
            note.setFont(0, font)
        for planned in plan.interviews:
            self._check_item(rows, ["", f"{planned.path.name}:{planned.row.line}"], planned)
        rows.setExpanded(True)
        self._show_years()

    def _show_encodings(self, plan) -> None:
        files = list(plan.encodings.items()) + [(p, None) for p in plan.unclear]
        if files:
            group = self._group("encodings", self.tr("Encodings (%1)").replace("%1", str(len(files))))
            for path, reading in files:
                self._encoding_item(group, path, reading, plan.unclear.get(path, []))
            group.setExpanded(True)

    def _show_duplicates(self, plan) -> None:
        """The questions found twice that the chosen policy decides, each with what it will do."""
        for i in range(self.tree.topLevelItemCount()):
            if self.tree.topLevelItem(i).data(0, GROUP_ROLE) == "duplicates":
                self.tree.takeTopLevelItem(i)
                break
        policy = self.duplicates.currentData()
        found = (getattr(plan, "duplicates_by_policy", None) or {}).get(policy, plan.duplicates)
        if found:
            group = self._group("duplicates", self.tr("Same question twice (%1)").replace("%1", str(len(found))))
            for dup in found:
                where = ", ".join(self._where(c) for c in dup.cards)
                if dup.existing is not None:
                    where += self.tr(", card #%1 in your collection").replace("%1", str(dup.existing.id))
                item = QTreeWidgetItem(group, [dup.question.replace("\n", " ")[:200], where])
                item.setData(0, Qt.UserRole, dup)
                outcome = QTreeWidgetItem(item, [self._outcome(dup, policy), ""])
                outcome.setFirstColumnSpanned(True)
                font = outcome.font(0)
                font.setItalic(True)
                outcome.setFont(0, font)
                item.setToolTip(0, outcome.text(0))
                item.setExpanded(True)
            group.setExpanded(True)

    def _redraw_duplicates(self, *_args) -> None:
        if self.plan is not None:
            self._show_duplicates(self.plan)

    def _where(self, planned) -> str:
        return f"{planned.path.name}:{planned.card.line}" if hasattr(planned, "card") else planned.where

    def _outcome(self, dup, policy: str) -> str:
        """What applying `policy` does to this question (as the summary will say it)."""
        imported = getattr(dup, "imported", [])
        if policy == "keep_both":
            text = self.tr("With this choice: all are kept.")
        elif policy == "skip":
            if imported:
                text = self.tr("With this choice: %1 stays (imported before); the others are not imported.") \
                    .replace("%1", self._where(imported[0]))
            elif dup.existing is not None:
                text = self.tr("With this choice: not imported; card #%1 in your collection stays as it is.") \
                    .replace("%1", str(dup.existing.id))
            else:
                text = self.tr("With this choice: %1 is kept; the others are not imported.") \
                    .replace("%1", self._where(dup.cards[0]))
        else:
            newest = dup.newest() if hasattr(dup, "newest") else dup.cards[-1]
            if imported and not any(c is newest for c in imported):
                text = (self.tr("With this choice: %1 replaces the text of %2's card (its scheduling is kept).")
                        .replace("%1", self._where(newest)).replace("%2", self._where(imported[-1])))
            elif dup.existing is not None and not imported:
                text = (self.tr("With this choice: %1 replaces the text of card #%2 in your collection "
                                "(its scheduling is kept).")
                        .replace("%1", self._where(newest)).replace("%2", str(dup.existing.id)))
            else:
                text = self.tr("With this choice: the newest, %1, is kept; the others are not imported.") \
                    .replace("%1", self._where(newest))
        if dup.reopened:
            text += " " + self.tr("An earlier import left out %1; this choice decides again.").replace(
                "%1", ", ".join(self._where(c) for c in dup.reopened))
        return text

    def _encoding_item(self, group: QTreeWidgetItem, path: Path, reading, candidates: list[str]) -> None:
        if reading is None:
            text = self.tr("%1: not readable in the chosen encoding; choose another").replace("%1", path.name)
            names, current = candidates, self.encodings.get(path, "")
        else:
            how = {"detected": self.tr("detected"), "guessed": self.tr("a guess, not sure"),
                   "chosen": self.tr("your choice"), "option": self.tr("your choice")}[reading.how]
            text = (self.tr("%1: read as %2 (%3)").replace("%1", path.name).replace("%2", reading.name)
                    .replace("%3", how))
            names, current = reading.candidates, reading.name
        item = QTreeWidgetItem(group, [text, ""])
        item.setData(0, Qt.UserRole, path)
        if reading is None or reading.how == "guessed":
            font = item.font(0)
            font.setBold(True)
            item.setFont(0, font)
        if reading is not None and reading.sample:
            QTreeWidgetItem(item, [self.tr("Sample: %1").replace("%1", reading.sample), ""])
            item.setExpanded(True)
        combo = QComboBox()
        combo.addItems(names)
        combo.setCurrentText(current)
        combo.setToolTip(self.tr("The encodings this file may be in, the most likely first"))
        combo.currentTextChanged.connect(partial(self._choose_encoding, path))
        self.tree.setItemWidget(item, 1, combo)

    def _choose_encoding(self, path: Path, name: str) -> None:
        """Read the files again with this one in `name`, keeping what was unticked."""
        if not name or self.plan is None:
            return
        self.encodings[path] = name
        self._unticked = {item.data(0, Qt.UserRole).key for item in self.card_items() + self.interview_items()
                          if item.checkState(0) != Qt.Checked}
        self.read()

    def _show_years(self, *_args) -> None:
        """Label each interview with the year its date is given, and each file with why."""
        override = self.year.value() if self.use_year.isChecked() else None
        for item in self._children("interviews"):
            assumption = item.data(0, ASSUMPTION_ROLE)
            if assumption is not None:
                item.setText(0, f"{assumption.path.name}: {self._assumption_text(assumption, override)}")
                item.setToolTip(0, item.text(0))
                continue
            planned = item.data(0, Qt.UserRole)
            label = planned.row.when_text.strip()
            if planned.year is not None:
                label += f" ({override or planned.year})"
            item.setText(0, f"{label}  {planned.row.company}")

    def _assumption_text(self, assumption, override: int | None) -> str:
        count = str(assumption.rows)
        if override is not None:
            return (self.tr("%1 dates without a year: %2, the year chosen above").replace("%1", count)
                    .replace("%2", str(override)))
        years = sorted(set(assumption.years))
        span = str(years[0]) if len(years) == 1 else f"{years[0]}-{years[-1]}"
        basis = assumption.basis
        ref = basis.reference.isoformat()
        if basis.kind == "front_matter":
            why = self.tr("placed near the note's front matter date %1").replace("%1", ref)
        elif basis.kind == "updated":
            why = self.tr("placed near the note's 'updated' date %1").replace("%1", ref)
        elif basis.kind == "file_time":
            why = self.tr("placed near the file's modification time %1").replace("%1", ref)
        else:
            why = self.tr("their most recent past occurrence (no front matter date and no believable file time)")
        return (self.tr("%1 dates without a year: %2, %3").replace("%1", count).replace("%2", span)
                .replace("%3", why))

    def _has_anything(self) -> bool:
        plan = self.plan
        return bool(plan and (plan.cards or getattr(plan, "files", None) or getattr(plan, "interviews", None)))

    def _show_problems(self, problems: list[str]) -> None:
        self.problems.clear()
        self.problems.addItems(problems)
        self.problems_label.setText(self.tr("Problems (%1)").replace("%1", str(len(problems))))

    def _children(self, name: str) -> list[QTreeWidgetItem]:
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            if group.data(0, GROUP_ROLE) == name:
                return [group.child(k) for k in range(group.childCount())]
        return []

    def card_items(self) -> list[QTreeWidgetItem]:
        return self._children("cards")

    def interview_items(self) -> list[QTreeWidgetItem]:
        """The interview rows with their tick boxes (the notes on assumed years left out)."""
        return [item for item in self._children("interviews") if item.data(0, ASSUMPTION_ROLE) is None]

    def assumption_items(self) -> list[QTreeWidgetItem]:
        return [item for item in self._children("interviews") if item.data(0, ASSUMPTION_ROLE) is not None]

    def encoding_items(self) -> list[QTreeWidgetItem]:
        return self._children("encodings")

    def encoding_combo(self, path: Path) -> QComboBox | None:
        for item in self.encoding_items():
            if item.data(0, Qt.UserRole) == Path(path):
                return self.tree.itemWidget(item, 1)
        return None

    def duplicate_items(self) -> list[QTreeWidgetItem]:
        return self._children("duplicates")

    # --- import ------------------------------------------------------------------------
    def apply(self) -> None:
        """Write the ticked parts on the worker; the summary replaces the preview's status."""
        if self.mode == "reviews":
            self.bring_back_reviews()
            return
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

            copy = self.copy.isChecked()
            year = self.year.value() if self.use_year.isChecked() else None
            work = partial(apply_import, plan=plan, copy=copy, year=year, progress=report,
                           duplicates=self.duplicates.currentData())
        else:
            from studio.core.importers.anki import apply_cards

            history = "keep" if self.keep.isChecked() else "new"
            work = partial(apply_cards, plan=plan, history=history, progress=report,
                           duplicates=self.duplicates.currentData())
        self.ctx.tasks.run(work, self._applied, self._failed)

    def _applied(self, summary) -> None:
        self.summary = summary
        self.plan = None
        self._show_problems(summary.problems)
        text = (self.tr("Imported: %1 notes, %2 new cards, %3 updated cards, %4 interviews.")
                .replace("%1", str(summary.notes)).replace("%2", str(summary.cards))
                .replace("%3", str(summary.cards_updated)).replace("%4", str(summary.interviews)))
        duplicates = summary.duplicates
        if duplicates:
            outcome = {"keep_both": self.tr("kept both"), "keep_newest": self.tr("kept the newest"),
                       "skip": self.tr("skipped the later ones")}[summary.duplicate_policy]
            text += " " + (self.tr("%1 questions found twice: %2.").replace("%1", str(len(duplicates)))
                           .replace("%2", outcome))
        if summary.encodings:  # the summary names every encoding that was not UTF-8
            read_as = ", ".join(f"{Path(path).name}: {reading.name}" for path, reading in summary.encodings.items())
            text += " " + self.tr("Read as: %1.").replace("%1", read_as)
        self.status.setText(text)
        self._busy(False)
        for what in ("notes", "cards", "interviews"):
            self.ctx.bus.data_changed.emit(what)
        self.imported.emit(summary)

    # --- reviews done in Anki ------------------------------------------------------------
    def bring_back_reviews(self) -> None:
        """Add the answers of the chosen Anki file to our cards, on the worker (one transaction)."""
        paths = self.paths()
        if not paths:
            self.status.setText(self.tr("Choose a file first."))
            return
        from studio.core.importers.anki_reviews import import_reviews

        path = paths[0]
        self.summary = None
        self.tree.clear()
        self._show_problems([])
        self._busy(True)
        self.progress.setRange(0, 0)
        self.status.setText(self.tr("Reading the reviews…"))
        self.ctx.tasks.run(lambda col: import_reviews(col, path), self._reviews_back, self._failed)

    def _reviews_back(self, summary) -> None:
        """Show which cards gained reviews, what matched nothing, and why nothing changed if so."""
        self.summary = summary
        self.tree.clear()
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if summary.completed else 0)
        if summary.cards:
            group = self._group("reviewed", self.tr("Cards that gained reviews (%1)")
                                .replace("%1", str(len(summary.cards))))
            for card in summary.cards:
                item = QTreeWidgetItem(group, [card.question.replace("\n", " ")[:200], f"+{card.added}"])
                item.setData(0, Qt.UserRole, card.card_id)
                item.setToolTip(0, card.key)
            group.setExpanded(True)
        if summary.unmatched_notes:
            group = self._group("unmatched", self.tr("Notes in the file that match no card here (%1): their "
                                                     "reviews are left out").replace("%1",
                                                                                     str(summary.unmatched_notes)))
            for guid in summary.unmatched_examples:
                QTreeWidgetItem(group, [self.tr("GUID %1").replace("%1", guid), ""])
            more = summary.unmatched_notes - len(summary.unmatched_examples)
            if more > 0:
                QTreeWidgetItem(group, [self.tr("and %1 more").replace("%1", str(more)), ""])
            group.setExpanded(True)
        self._show_problems(list(summary.problems))
        if summary.completed:
            text = (self.tr("Reviews that came back: %1 · cards that gained reviews: %2 · already here: %3.")
                    .replace("%1", str(summary.reviews_added)).replace("%2", str(len(summary.cards)))
                    .replace("%3", str(summary.already_here)))
            if not summary.reviews_added:
                text += " " + self.tr("Nothing new: every review in this file was here already.")
            self.ctx.bus.status_message.emit(text)
        else:
            text = self.tr("Nothing was imported and nothing changed; the problems below say why.")
        self.status.setText(text)
        self._busy(False)
        if summary.completed and summary.reviews_added:
            for what in ("reviews", "cards"):  # due counts, Today, Stats, the review queue
                self.ctx.bus.data_changed.emit(what)
        self.imported.emit(summary)

    def review_items(self) -> list[QTreeWidgetItem]:
        return self._children("reviewed")

    def unmatched_items(self) -> list[QTreeWidgetItem]:
        return self._children("unmatched")

    def _failed(self, error: Exception) -> None:
        """One plain sentence: a read-only or full disk says so and where, never SQL (issue #16)."""
        from studio.core import errors
        from studio.ui.tasks import user_message

        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        message = user_message(error)
        if errors.classify(error) is not None:
            where = getattr(error, "filename", None) or self.ctx.tasks.collection.db.path
            message = f"{message} ({where})"
        self.status.setText(self.tr("Could not import: %1").replace("%1", message))
        self._busy(False)


__all__ = ["ImportDialog"]
