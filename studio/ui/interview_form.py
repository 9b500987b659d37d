"""The interview detail/edit form: every field, inline validation, nothing saved half-way."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo, available_timezones

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core import interviews as iv


def _local_zone_name() -> str:
    local = datetime.now().astimezone().tzinfo
    name = getattr(local, "key", None)
    return name if name else "UTC"


class InterviewForm(QDialog):
    """Create or edit one interview. `draft()` returns an InterviewDraft or shows errors."""

    def __init__(self, parent: QWidget | None = None, interview=None, drills: list[str] | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Interview"))
        self.resize(760, 720)
        self.interview_id = interview.id if interview is not None else None
        self.drills = drills or []
        self.errors: dict[str, QLabel] = {}
        form = QFormLayout()
        self.when = QLineEdit()
        self.when.setPlaceholderText(self.tr("e.g. 2025-05-19 20:00 or 5/19 20:00"))
        self.zone = QComboBox()
        self.zone.setEditable(True)
        self.zone.addItems(sorted(available_timezones()))
        self.zone.setCurrentText(_local_zone_name())
        self.company = QLineEdit()
        self.team = QLineEdit()
        self.role = QLineEdit()
        self.round = QComboBox()
        self.round.setEditable(True)
        self.round.addItems(["1st technical", "2nd technical", "3rd technical", "HR", "offer call"])
        self.format = QComboBox()
        self.format_names = {"": "—", "phone": self.tr("phone"), "video": self.tr("video"),
                             "onsite": self.tr("onsite"), "written": self.tr("written test")}
        for key, label in self.format_names.items():
            self.format.addItem(label, key)
        self.duration = QSpinBox()
        self.duration.setRange(0, 1440)
        self.duration.setSuffix(self.tr(" min"))
        self.duration.setSpecialValueText("—")
        self.referral = QLineEdit()
        self.result_combo = QComboBox()
        self.result_names = {"scheduled": self.tr("scheduled"), "waiting": self.tr("waiting"),
                             "passed": self.tr("passed"), "rejected": self.tr("rejected"), "offer": self.tr("offer"),
                             "withdrawn": self.tr("withdrawn"), "no_response": self.tr("no response")}
        for key, label in self.result_names.items():
            self.result_combo.addItem(label, key)
        self.next_step = QLineEdit()
        self.next_when = QLineEdit()
        self.next_when.setPlaceholderText(self.tr("optional date, e.g. 2025-05-26 10:00"))
        self.felt = QPlainTextEdit()
        self.felt.setFixedHeight(60)
        self.notes = QPlainTextEdit()
        self.notes.setPlaceholderText(self.tr("Free notes in Markdown"))
        for key, label, widget in (
            ("starts_at", self.tr("Date and time"), self.when), ("tz", self.tr("Time zone"), self.zone),
            ("company", self.tr("Company"), self.company), ("team", self.tr("Team"), self.team),
            ("role", self.tr("Role"), self.role), ("round", self.tr("Round"), self.round),
            ("format", self.tr("Format"), self.format), ("duration_min", self.tr("Duration"), self.duration),
            ("referral", self.tr("Referral"), self.referral), ("result", self.tr("Result"), self.result_combo),
            ("next_step", self.tr("Next step"), self.next_step), ("next_step_at", self.tr("Next step date"), self.next_when),
            ("felt", self.tr("How it felt"), self.felt), ("notes_md", self.tr("Notes"), self.notes),
        ):
            box = QWidget()
            v = QVBoxLayout(box)
            v.setContentsMargins(0, 0, 0, 0)
            v.addWidget(widget)
            error = QLabel()
            error.setProperty("role", "error")  # coloured by the theme's style sheet
            error.hide()
            v.addWidget(error)
            self.errors[key] = error
            form.addRow(label, box)
        self.questions = QTableWidget(0, 5)
        self.questions.setHorizontalHeaderLabels(
            [self.tr("Question or task"), self.tr("Roadmap node"), self.tr("How it went (1-5)"),
             self.tr("Coding task"), self.tr("Drill")])
        self.questions.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        add_q = QPushButton(self.tr("Add question"))
        add_q.clicked.connect(lambda: self._add_question())
        remove_q = QPushButton(self.tr("Remove question"))
        remove_q.clicked.connect(lambda: self.questions.removeRow(self.questions.currentRow()))
        self.question_error = QLabel()
        self.question_error.setProperty("role", "error")  # coloured by the theme's style sheet
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.try_accept)
        buttons.rejected.connect(self.reject)
        qrow = QHBoxLayout()
        qrow.addWidget(QLabel(self.tr("What was asked")))
        qrow.addStretch(1)
        qrow.addWidget(add_q)
        qrow.addWidget(remove_q)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(qrow)
        layout.addWidget(self.questions)
        layout.addWidget(self.question_error)
        layout.addWidget(buttons)
        if interview is not None:
            self._fill(interview)
        self.result_draft: iv.InterviewDraft | None = None

    def _add_question(self, text="", node="", rating=None, coding=False, drill=""):
        row = self.questions.rowCount()
        self.questions.insertRow(row)
        self.questions.setItem(row, 0, QTableWidgetItem(text))
        self.questions.setItem(row, 1, QTableWidgetItem(node or ""))
        self.questions.setItem(row, 2, QTableWidgetItem("" if rating is None else str(rating)))
        check = QTableWidgetItem()
        check.setFlags(check.flags() | Qt.ItemIsUserCheckable)
        check.setCheckState(Qt.Checked if coding else Qt.Unchecked)
        self.questions.setItem(row, 3, check)
        self.questions.setItem(row, 4, QTableWidgetItem(drill or ""))

    def _fill(self, interview) -> None:
        local = iv.local_time(interview.starts_at, interview.tz)
        self.when.setText(local.strftime("%Y-%m-%d %H:%M"))
        self.zone.setCurrentText(interview.tz)
        self.company.setText(interview.company)
        self.team.setText(interview.team)
        self.role.setText(interview.role)
        self.round.setCurrentText(interview.round)
        self.format.setCurrentIndex(max(0, self.format.findData(interview.format)))
        self.duration.setValue(interview.duration_min or 0)
        self.referral.setText(interview.referral)
        self.result_combo.setCurrentIndex(max(0, self.result_combo.findData(interview.result)))
        self.next_step.setText(interview.next_step)
        if interview.next_step_at:
            self.next_when.setText(iv.local_time(interview.next_step_at, interview.tz).strftime("%Y-%m-%d %H:%M"))
        self.felt.setPlainText(interview.felt)
        self.notes.setPlainText(interview.notes_md)
        for q in interview.questions:
            self._add_question(q.text, q.node_id, q.rating, q.is_coding, q.drill_id)

    # --- validation ----------------------------------------------------------------------
    def _parse(self, text: str, zone, field: str, errors: dict[str, str]):
        if not text.strip():
            return None
        try:
            return iv.parse_when(text, zone)
        except iv.DateNeedsYear:
            year, ok = QInputDialog.getInt(self, self.tr("Which year?"),
                                           self.tr("“%1” has no year. Which year is it?").replace("%1", text),
                                           datetime.now().year, 2000, 2100)
            if not ok:
                errors[field] = self.tr("The date needs a year.")
                return None
            try:
                return iv.parse_when(text, zone, year)
            except ValueError as exc:
                errors[field] = str(exc)
        except ValueError as exc:
            errors[field] = str(exc)
        return None

    def build_draft(self) -> tuple[iv.InterviewDraft | None, dict[str, str]]:
        errors: dict[str, str] = {}
        try:
            zone = ZoneInfo(self.zone.currentText().strip())
        except Exception:
            errors["tz"] = self.tr("Unknown time zone.")
            zone = timezone.utc
        starts = self._parse(self.when.text(), zone, "starts_at", errors)
        next_at = self._parse(self.next_when.text(), zone, "next_step_at", errors)
        questions = []
        for row in range(self.questions.rowCount()):
            text = (self.questions.item(row, 0).text() if self.questions.item(row, 0) else "").strip()
            if not text:
                continue
            rating_text = self.questions.item(row, 2).text().strip() if self.questions.item(row, 2) else ""
            rating = None
            if rating_text:
                try:
                    rating = int(rating_text)
                except ValueError:
                    errors[f"question_{row + 1}"] = self.tr("A question's rating must be 1 to 5.")
            questions.append(iv.QuestionDraft(
                text=text, node_id=(self.questions.item(row, 1).text().strip() or None),
                rating=rating, is_coding=self.questions.item(row, 3).checkState() == Qt.Checked,
                drill_id=(self.questions.item(row, 4).text().strip() or None)))
        draft = iv.InterviewDraft(
            starts_at=starts, company=self.company.text(), round=self.round.currentText(), team=self.team.text(),
            role=self.role.text(), format=self.format.currentData(), duration_min=self.duration.value() or None,
            referral=self.referral.text(), felt=self.felt.toPlainText(), result=self.result_combo.currentData(),
            next_step=self.next_step.text(), next_step_at=next_at, notes_md=self.notes.toPlainText(),
            questions=questions)
        if starts is None and "starts_at" not in errors:
            errors["starts_at"] = self.tr("Date and time are required.")
        core_errors = iv.validate(draft)
        messages = {"company": self.tr("Company is required."),
                    "next_step_at": self.tr("The next step cannot be before the interview.")}
        for key, message in core_errors.items():
            errors.setdefault(key, messages.get(key, message))
        return (None if errors else draft), errors

    def show_errors(self, errors: dict[str, str]) -> None:
        for key, label in self.errors.items():
            label.setVisible(key in errors)
            label.setText(errors.get(key, ""))
        q_errors = [v for k, v in errors.items() if k.startswith("question_")]
        self.question_error.setText(" ".join(q_errors))

    def try_accept(self) -> None:
        draft, errors = self.build_draft()
        self.show_errors(errors)
        if draft is not None:
            self.result_draft = draft
            self.accept()
