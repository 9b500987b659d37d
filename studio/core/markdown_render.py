"""Markdown to the HTML subset QTextBrowser draws well.

Python-Markdown does the parsing (fenced code, Pygments highlighting with inline
styles, tables, footnotes, a table of contents whose anchors work for Chinese
headings); a few post-processing steps adapt the HTML to Qt's rich-text engine: code
blocks become one-cell tables carrying the background, table-cell alignment becomes
`align=`, task-list boxes become ☐/☑ and wiki-links become `note:` links. Remote
resources are never fetched: only local image paths are kept.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import markdown
from markdown.extensions.toc import slugify_unicode

from studio.core.frontmatter import FrontMatter, split_front_matter

_WIKI_RE = re.compile(r"\[\[([^\]|#\n]*)(?:#([^\]|\n]*))?(?:\|([^\]\n]*))?\]\]")
_TASK_RE = re.compile(r"<li>\s*(?:<p>)?\s*\[([ xX])\]\s")
_ALIGN_RE = re.compile(r'<(td|th) style="text-align: ?(left|right|center);?">')
_PRE_RE = re.compile(r'<div class="codehilite"(?: style="([^"]*)")?>\s*<pre([^>]*)>(.*?)</pre>\s*</div>', re.S)
_IMG_RE = re.compile(r'<img([^>]*?)src="([^"]*)"([^>]*)>')


@dataclass
class RenderedNote:
    html: str
    front: FrontMatter
    headings: list[tuple[int, str, str]] = field(default_factory=list)  # level, text, anchor
    problems: list[str] = field(default_factory=list)


def _wiki_links(text: str) -> str:
    def repl(m: re.Match) -> str:
        target, heading, alias = (m.group(1) or "").strip(), m.group(2), m.group(3)
        label = alias or (f"{target}#{heading}" if heading else target) or heading or ""
        href = "note:" + target + (("#" + slugify_unicode(heading, "-")) if heading else "")
        return f"[{label}](<{href}>)"

    return _WIKI_RE.sub(repl, text)


def _code_block(m: re.Match) -> str:
    style = m.group(1) or "background: #f6f8fa"
    bg = re.search(r"background:\s*([^;]+)", style)
    color = bg.group(1).strip() if bg else "#f6f8fa"
    return (
        f'<table width="100%" cellpadding="8" cellspacing="0" class="code"><tr><td bgcolor="{color}">'
        f'<pre style="margin:0">{m.group(3)}</pre></td></tr></table>'
    )


def _toc_headings(tokens, out) -> None:
    for tok in tokens:
        out.append((tok["level"], html.unescape(re.sub("<[^>]+>", "", tok["name"])), tok["id"]))
        _toc_headings(tok.get("children", []), out)


def render_markdown(text: str, dark: bool = False) -> RenderedNote:
    """Render a note (front matter included) to QTextBrowser-ready HTML."""
    front, body = split_front_matter(text)
    problems = [front.error] if front.error else []
    if body.count("```") % 2 == 1:
        problems.append("a code fence is not closed; rendered up to the end of the note")
        body += "\n```\n"
    md = markdown.Markdown(
        extensions=["fenced_code", "codehilite", "tables", "toc", "sane_lists", "footnotes", "nl2br"],
        extension_configs={
            "codehilite": {"noclasses": True, "pygments_style": "monokai" if dark else "friendly", "guess_lang": False},
            "toc": {"slugify": slugify_unicode, "permalink": False},
        },
    )
    out = md.convert(_wiki_links(body))
    out = _PRE_RE.sub(_code_block, out)
    out = _ALIGN_RE.sub(lambda m: f'<{m.group(1)} align="{m.group(2)}">', out)
    out = _TASK_RE.sub(lambda m: "<li>" + ("☑ " if m.group(1) in "xX" else "☐ "), out)
    out = _IMG_RE.sub(_local_image, out)
    headings: list[tuple[int, str, str]] = []
    _toc_headings(getattr(md, "toc_tokens", []), headings)
    return RenderedNote(html=out, front=front, headings=headings, problems=problems)


def _local_image(m: re.Match) -> str:
    src = m.group(2)
    if re.match(r"^[a-z][a-z0-9+.-]*://", src, re.I) and not src.lower().startswith("file://"):
        alt = re.search(r'alt="([^"]*)"', m.group(0))
        return f"<i>[remote image not loaded: {html.escape(alt.group(1) if alt else src)}]</i>"
    return m.group(0)
