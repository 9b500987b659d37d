"""Front matter of Markdown notes, in the shapes people actually write.

Hexo style (title, date, updated, categories, tags, with nested lists) and Obsidian
style (dateCreated, dateModified, tags) are both read into one `FrontMatter`. Front
matter that is not valid YAML is reported and the note still renders.
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


def split_front_matter(text: str) -> tuple[FrontMatter, str]:
    """Return the parsed front matter and the Markdown body after it."""
    match = _FM_RE.match(text)
    if not match:
        return FrontMatter(), text.lstrip("\ufeff")
    body = text[match.end():]
    try:
        raw = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        return FrontMatter(error=f"front matter is not valid YAML{where}"), body
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return FrontMatter(error="front matter is not a mapping"), body
    fm = FrontMatter(raw=raw)
    fm.title = _as_text(raw.get("title"))
    fm.created = _as_text(raw.get("date") or raw.get("dateCreated") or raw.get("created"))
    fm.updated = _as_text(raw.get("updated") or raw.get("dateModified") or raw.get("modified"))
    fm.tags = _flatten(raw.get("tags"))
    fm.categories = _flatten(raw.get("categories") or raw.get("category"))
    fm.node = _as_text(raw.get("node"))
    return fm, body
