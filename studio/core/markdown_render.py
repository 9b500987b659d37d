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
from functools import lru_cache
from pathlib import Path

import markdown
from markdown.extensions.toc import slugify_unicode
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from studio.core.frontmatter import FrontMatter, split_front_matter

_WIKI_RE = re.compile(r"\[\[([^\]|#\n]*)(?:#([^\]|\n]*))?(?:\|([^\]\n]*))?\]\]")
_TASK_RE = re.compile(r"<li>(\s*(?:<p>)?)\s*\[([ xX])\]\s")
_ALIGN_RE = re.compile(r'<(td|th) style="text-align: ?(left|right|center);?">')
_PRE_RE = re.compile(r'<pre><code(?: class="language-([^"]*)")?>(.*?)</code></pre>', re.S)
_HEADING_RE = re.compile(r'<h([1-6]) id="([^"]*)">')
_STYLES = {False: "friendly", True: "monokai"}
_IMG_RE = re.compile(r'<img([^>]*?)src="([^"]*)"([^>]*)>')


@dataclass
class RenderedNote:
    html: str
    front: FrontMatter
    headings: list[tuple[int, str, str]] = field(default_factory=list)  # level, text, anchor
    problems: list[str] = field(default_factory=list)
    code_blocks: list[str] = field(default_factory=list)  # source text, for "copy:N" links


def _wiki_links(text: str, titles: dict[str, str] | None = None) -> str:
    """[[target]] / [[target|alias]] / [[target#heading]] to `note:` links.

    Without an alias the label is the target's title when `titles` knows it (a roadmap
    node id reads as its title), else the target as written.
    """

    def repl(m: re.Match) -> str:
        target, heading, alias = (m.group(1) or "").strip(), m.group(2), m.group(3)
        name = (titles or {}).get(target, target)
        label = alias or (f"{name}#{heading}" if heading else name) or heading or ""
        href = "note:" + target + (("#" + slugify_unicode(heading, "-")) if heading else "")
        return f"[{label}](<{href}>)"

    return _WIKI_RE.sub(repl, text)


@lru_cache(maxsize=2)
def _formatter(dark: bool) -> HtmlFormatter:
    """One formatter per theme: building its inline style table is the costly part."""
    return HtmlFormatter(noclasses=True, nowrap=True, style=_STYLES[dark])


@lru_cache(maxsize=64)
def _lexer(name: str):
    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def _code_block(m: re.Match, dark: bool, blocks: list[str], copy_label: str) -> str:
    """A code block as a one-cell table (Qt draws cell backgrounds, not <pre> ones)."""
    lang, escaped = (m.group(1) or "").strip().lower(), m.group(2)
    blocks.append(html.unescape(escaped).rstrip("\n"))
    copy = (f'<tr><td align="right"><a href="copy:{len(blocks) - 1}">{html.escape(copy_label)}</a></td></tr>'
            if copy_label else "")
    lexer = _lexer(lang) if lang else None
    fmt = _formatter(dark)
    code = highlight(html.unescape(escaped), lexer, fmt) if lexer is not None else escaped
    color = fmt.style.background_color or ("#272822" if dark else "#f6f8fa")
    fg = ' style="color: #f8f8f2"' if dark else ""
    return (
        f'<table width="100%" cellpadding="8" cellspacing="0" class="code"><tr><td bgcolor="{color}">'
        f'<pre style="margin:0"{fg}>{code.rstrip(chr(10))}</pre></td></tr>{copy}</table>'
    )


def _toc_headings(tokens, out) -> None:
    for tok in tokens:
        out.append((tok["level"], html.unescape(re.sub("<[^>]+>", "", tok["name"])), tok["id"]))
        _toc_headings(tok.get("children", []), out)


def render_markdown(text: str, dark: bool = False, base_dir: Path | None = None,
                    copy_label: str = "", titles: dict[str, str] | None = None) -> RenderedNote:
    """Render a note (front matter included) to QTextBrowser-ready HTML.

    `base_dir` is the note's folder: relative images are resolved against it and a
    missing one becomes a visible placeholder. With `copy_label`, each code block gets
    a `copy:N` link under it (N indexes `code_blocks`). `titles` maps wiki-link targets
    to the titles shown for them.
    """
    front, body = split_front_matter(text)
    problems = [front.error] if front.error else []
    if _unclosed_fence(body):
        problems.append("a code fence is not closed; rendered up to the end of the note")
        body += "\n```\n"
    md = markdown.Markdown(
        extensions=["fenced_code", "tables", "toc", "sane_lists", "footnotes", "nl2br"],
        extension_configs={"toc": {"slugify": slugify_unicode, "permalink": False}},
    )
    out = md.convert(_wiki_links(body, titles))
    blocks: list[str] = []
    out = _PRE_RE.sub(lambda m: _code_block(m, dark, blocks, copy_label), out)
    out = _ALIGN_RE.sub(lambda m: f'<{m.group(1)} align="{m.group(2)}">', out)
    out = _TASK_RE.sub(lambda m: "<li>" + m.group(1) + ("☑ " if m.group(2) in "xX" else "☐ "), out)
    out = _IMG_RE.sub(lambda m: _local_image(m, base_dir), out)
    out = _HEADING_RE.sub(lambda m: f'<h{m.group(1)} id="{m.group(2)}"><a name="{m.group(2)}"></a>', out)
    headings: list[tuple[int, str, str]] = []
    _toc_headings(getattr(md, "toc_tokens", []), headings)
    return RenderedNote(html=out, front=front, headings=headings, problems=problems, code_blocks=blocks)


def _unclosed_fence(body: str) -> bool:
    """True when a ``` or ~~~ fence opened at the start of a line is never closed."""
    open_fence = ""
    for line in body.splitlines():
        stripped = line.lstrip()
        if open_fence:
            if stripped.startswith(open_fence) and not stripped[len(open_fence):].strip():
                open_fence = ""
        elif stripped.startswith(("```", "~~~")):
            open_fence = stripped[:3]
    return bool(open_fence)


def _local_image(m: re.Match, base_dir: Path | None) -> str:
    """Keep local images (made absolute); remote or missing ones become a placeholder."""
    src = html.unescape(m.group(2))
    alt_match = re.search(r'alt="([^"]*)"', m.group(0))
    alt = alt_match.group(1) if alt_match else ""
    if re.match(r"^[a-z][a-z0-9+.-]*:", src, re.I) and not src.lower().startswith("file:"):
        return f"<i>[remote image not loaded: {alt or html.escape(src)}]</i>"
    if base_dir is not None:
        local = src[len("file://"):] if src.lower().startswith("file://") else src
        path = Path(local) if Path(local).is_absolute() else Path(base_dir) / local
        if not path.is_file():
            return f"<i>[image not found: {alt or html.escape(src)}]</i>"
        return f'<img{m.group(1)}src="{html.escape(path.as_posix())}"{m.group(3)}>'
    return m.group(0)
