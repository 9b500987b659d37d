"""Interview records from Markdown tables, in Chinese or English.

A table counts as an interview log when its header names a date (Date, 日期, 时间…)
and either a company column (Company, 公司…) or a date cell that carries the company
after the date ("5/19 20：00 Acme AI Infra"). Other columns map by their header words:
questions/record (记录, 问题), feeling (感受), result (结果), round (轮次), role (岗位),
notes (备注). Empty rows are skipped; every row that cannot be read is reported with
its line.

Dates written without a year ("5/19 20:00") are placed by `place_year` near a reference
date, in the twelve-month window that reference stands for:
- the note's front matter `date` (when the log was started): from 3 months before it to
  9 months after, since a log is mostly filled in after it is begun. A note dated
  2025-12-28 puts "1/3" in 2026 and "12/20" in 2025;
- else its front matter `updated`, else the file's modification time (when the log was
  last saved): from 9 months before to 3 months after, since rows are mostly written
  after the interview and upcoming ones a little ahead;
- else (no front matter date, and a file time before 1990 or in the future, as unpacked
  archives give) the most recent past occurrence, today included.
The user can override all of this with one year (`--year`, or the preview's year box).
"""

from __future__ import annotations

import re
import unicodedata
from calendar import monthrange
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo

HEADER_WORDS = {
    "date": ("date", "time", "when", "日期", "时间", "面试时间"),
    "company": ("company", "公司", "企业", "单位"),
    "questions": ("questions", "asked", "record", "记录", "问题", "内容", "面试内容"),
    "felt": ("feeling", "felt", "impression", "感受", "感想", "体验"),
    "result": ("result", "status", "outcome", "结果", "状态"),
    "round": ("round", "轮次", "轮"),
    "role": ("role", "position", "岗位", "职位"),
    "notes": ("notes", "note", "remark", "备注"),
}
RESULT_WORDS = [
    ("offer", ("offer", "录用", "意向")),
    ("rejected", ("挂", "reject", "fail", "未通过", "没过")),
    ("passed", ("pass", "通过", "进入下一轮", "二面", "三面")),
    ("no_response", ("无后续", "没消息", "no response", "ghost", "无回复")),
    ("withdrawn", ("withdraw", "放弃", "拒了")),
    ("waiting", ("wait", "等待", "等结果")),
]
_DATE_PREFIX = re.compile(
    r"^\s*(?P<date>(?:\d{4}\s*[-/.年]\s*)?\d{1,2}\s*[-/.月]\s*\d{1,2}(?:\s*[日号])?"
    r"(?:\s+\d{1,2}\s*[:：时点]\s*\d{0,2}\s*分?)?)\s*(?P<rest>.*)$")


@dataclass
class TableRow:
    line: int
    when_text: str
    company: str
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def result(self) -> str:
        text = self.fields.get("result", "").lower()
        for key, words in RESULT_WORDS:
            if any(w in text for w in words):
                return key
        return "waiting"


@dataclass
class TableProblem:
    line: int
    message: str


def _cells(line: str) -> list[str]:
    inner = line.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def _column_kind(header: str) -> str | None:
    h = unicodedata.normalize("NFKC", header).strip().lower()
    for kind, words in HEADER_WORDS.items():
        if any(w in h for w in words):
            return kind
    return None


def find_interview_rows(text: str) -> tuple[list[TableRow], list[TableProblem]]:
    """Every interview row in every qualifying table of a Markdown text."""
    lines = text.split("\n")
    rows: list[TableRow] = []
    problems: list[TableProblem] = []
    i = 0
    while i < len(lines) - 1:
        if "|" in lines[i] and re.match(r"^\s*\|?\s*:?-{2,}", lines[i + 1]):
            header = _cells(lines[i])
            kinds = [_column_kind(h) for h in header]
            j = i + 2
            body = []
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                body.append((j + 1, _cells(lines[j])))
                j += 1
            if "date" in kinds:
                _read_table(kinds, body, rows, problems)
            i = j
            continue
        i += 1
    return rows, problems


def _read_table(kinds, body, rows, problems) -> None:
    has_company = "company" in kinds
    for line_no, cells in body:
        if not any(c.strip() for c in cells):
            continue
        if len(cells) < len(kinds):
            problems.append(TableProblem(line_no, f"row has {len(cells)} cells, the header has {len(kinds)}; "
                                                  "missing cells read as empty"))
            cells = cells + [""] * (len(kinds) - len(cells))
        values: dict[str, str] = {}
        for kind, cell in zip(kinds, cells):
            if kind and cell:
                values[kind] = (values[kind] + " " + cell) if kind in values else cell
        date_cell = unicodedata.normalize("NFKC", values.pop("date", ""))
        m = _DATE_PREFIX.match(date_cell)
        if not m:
            problems.append(TableProblem(line_no, f"cannot read a date in {date_cell!r}; row skipped"))
            continue
        company = values.pop("company", "") if has_company else m.group("rest").strip()
        if not company:
            problems.append(TableProblem(line_no, "row has a date but no company; row skipped"))
            continue
        rows.append(TableRow(line_no, m.group("date"), company, values))


# ----- which year a yearless date means ---------------------------------------------------

# Months before and after the reference date that its twelve-month window covers.
WINDOWS = {"front_matter": (-3, 9), "updated": (-9, 3), "file_time": (-9, 3)}
_SANE_FROM = date(1990, 1, 1)
_DAY = timedelta(days=1)


@dataclass
class YearBasis:
    """What a file's yearless dates are placed near: `kind` is a key of WINDOWS, or "today"."""

    kind: str
    reference: date
    rejected_file_time: date | None = None  # a file time too old or in the future to believe


def _days_in(year: int, month: int) -> int:
    return monthrange(year, month)[1]


def _shift(day: date, months: int) -> date:
    """The same day `months` later (or earlier), clamped to the end of a shorter month."""
    year, month0 = divmod(day.year * 12 + day.month - 1 + months, 12)
    return date(year, month0 + 1, min(day.day, _days_in(year, month0 + 1)))


def year_basis(created: date | None, updated: date | None, mtime: float | None, today: date,
               tz: tzinfo | None = None) -> YearBasis:
    """The reference for one file: front matter date, else updated, else file time, else today."""
    if created is not None:
        return YearBasis("front_matter", created)
    if updated is not None:
        return YearBasis("updated", updated)
    if mtime is None:
        return YearBasis("today", today)
    try:
        when = datetime.fromtimestamp(mtime, tz).date()
    except (OverflowError, OSError, ValueError):
        return YearBasis("today", today)
    if _SANE_FROM <= when <= today + _DAY:
        return YearBasis("file_time", when)
    return YearBasis("today", today, rejected_file_time=when)


def place_year(month: int, day: int, basis: YearBasis) -> int:
    """The year that puts month/day inside the basis's window (see the module docstring)."""
    ref = basis.reference
    if basis.kind == "today":  # the most recent past occurrence: after a year ago, up to today
        lower, upper = _shift(ref, -12) + _DAY, ref + _DAY
    else:
        before, after = WINDOWS[basis.kind]
        lower, upper = _shift(ref, before), _shift(ref, after)
    for year in (ref.year - 1, ref.year, ref.year + 1):
        if day <= _days_in(year, month) and lower <= date(year, month, day) < upper:
            return year
    # 29 February with no leap year in the window: the latest one before the window ends.
    year = upper.year
    while day > _days_in(year, month) or date(year, month, day) >= upper:
        year -= 1
    return year
