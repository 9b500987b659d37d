"""Front matter of Markdown notes, in the shapes people actually write.

Hexo style (title, date, updated, categories, tags, with nested lists) and Obsidian
style (dateCreated, dateModified, tags) are both read into one `FrontMatter`. Front
matter that is not valid YAML is reported and the note still renders. The dates are also
kept as `date` values (written as YAML dates, "2025-12-28 10:00", "2025/12/28" or
"2025年12月28日"), so an importer can tell which year a note's yearless dates belong to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

import yaml

_FM_RE = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)


@dataclass
class FrontMatter:
    title: str = ""
    created: str = ""
    updated: str = ""
    tags: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    node: str = ""
    created_date: date | None = None
    updated_date: date | None = None
    raw: dict = field(default_factory=dict)
    error: str = ""


def _flatten(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        out: list[str] = []
        for item in value:
            out.extend(_flatten(item))
        return out
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            out.append(str(k))
            out.extend(_flatten(v))
        return out
    text = str(value).strip()
    if not text:
        return []
    if "," in text:
        return [t.strip().lstrip("#") for t in text.split(",") if t.strip()]
    return [text.lstrip("#")]


def _as_text(value) -> str:
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    return "" if value is None else str(value).strip()


_DATE_TEXT = re.compile(r"^\s*(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)")


def _as_date(value) -> date | None:
    """The calendar date a front matter value names, as written; None if it names none."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    m = _DATE_TEXT.match(str(value or ""))
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


MAX_FRONT_MATTER_DEPTH = 64


class _TooDeep(Exception):
    pass


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader without anchors and aliases: front matter never needs them, and a few lines
    of nested aliases expand to millions of values (a "billion laughs" note). It also counts
    how deep collections nest and stops past MAX_FRONT_MATTER_DEPTH, so thousands of "[" fail
    the same way whatever the interpreter's recursion limit happens to be."""

    _depth = 0

    def compose_node(self, parent, index):  # noqa: D102
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in front matter",
                                              event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_FRONT_MATTER_DEPTH:
                raise _TooDeep
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def split_front_matter(text: str) -> tuple[FrontMatter, str]:
    """Return the parsed front matter and the Markdown body after it."""
    match = _FM_RE.match(text)
    if not match:
        return FrontMatter(), text.lstrip("\ufeff")
    body = text[match.end():]
    try:
        raw = yaml.load(match.group(1), Loader=_NoAliasLoader)  # noqa: S506 - a SafeLoader subclass
    except (RecursionError, _TooDeep):
        return FrontMatter(error="front matter is nested too deeply"), body
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        problem = getattr(exc, "problem", None) if isinstance(exc, yaml.composer.ComposerError) else None
        return FrontMatter(error=f"front matter is not valid YAML{where}" + (f": {problem}" if problem else "")), body
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return FrontMatter(error="front matter is not a mapping"), body
    fm = FrontMatter(raw=raw)
    fm.title = _as_text(raw.get("title"))
    created = raw.get("date") or raw.get("dateCreated") or raw.get("created")
    updated = raw.get("updated") or raw.get("dateModified") or raw.get("modified")
    fm.created, fm.updated = _as_text(created), _as_text(updated)
    fm.created_date, fm.updated_date = _as_date(created), _as_date(updated)
    fm.tags = _flatten(raw.get("tags"))
    fm.categories = _flatten(raw.get("categories") or raw.get("category"))
    fm.node = _as_text(raw.get("node"))
    return fm, body
