"""Markdown to the HTML subset QTextBrowser draws well, safe for notes from anywhere.

Python-Markdown does the parsing (fenced code, Pygments highlighting with inline
styles, tables, footnotes, a table of contents whose anchors work for Chinese
headings); a few post-processing steps adapt the HTML to Qt's rich-text engine: code
blocks become one-cell tables carrying the background, table-cell alignment becomes
`align=`, task-list boxes become ☐/☑ and wiki-links become `note:` links.

Notes are shared and imported, so the renderer assumes they may be hostile:
- Limits, checked in linear time before Markdown parses (markdown_shape): size,
  nesting (list indentation, '>' prefixes) and the parser's rescanning work, which
  grows with the square of some inputs (unclosed '[', '(' or '<', packed headings);
  deep nesting also exhausts its recursion. Beyond a limit the note is shown as
  escaped plain text under a notice that names the limit and says that it cannot be
  raised (the limits are fixed) and what to change in the note instead; the file is
  untouched. The notice is built from a RenderLimit, so the UI can word it in the user's
  language (`set_notice_translator`, installed with the translations); this module
  imports no Qt.
- Nothing remote is fetched: the final HTML is rebuilt by safe_html, which keeps only
  attributes that cannot load anything (images from local files or embedded data:;
  a remote image becomes a "[remote image: host]" link) and measures the HTML's
  nesting, which is what slows Qt down. The panes open web links only on a click.
- Every regular expression here runs in linear time (no nested or adjacent
  quantifiers that can backtrack over the same text).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

import markdown
from markdown.extensions.toc import slugify_unicode
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from studio.core.frontmatter import FrontMatter, split_front_matter
from studio.core.markdown_shape import measure_shape
from studio.core.safe_html import SafeHtml

# Real notes are a few hundred KB at most and nest under 10 levels. A note just under
# the size limit formats in 1.5 s (prose) to 6 s (dense markup) on a slow 2-core machine,
# a 2 MB one took 3 to 12 s (tests/core/test_render_limits.py).
MAX_FORMATTED_BYTES = 1_000_000
MAX_NESTING = 40  # list, quote and block-element levels
MAX_INLINE_NESTING = 1000  # <b>, <span>… left open: Qt slows down only with the square of thousands
MAX_TABLE_NESTING = 8  # Qt's table layout doubles its time with every level past about 10
MAX_PLAIN_CHARS = 5_000_000  # plain text shown of a note over a limit (Qt takes ~1 s to lay it out)
# Estimated steps of Python-Markdown's rescanning (see markdown_shape); 10 million is a
# few seconds on a slow machine, a thousand times what real notes need.
MAX_PARSE_WORK = 10_000_000

# A target, heading or alias stops at the next "[[", so each character is scanned
# from one opening only (linear; the old form rescanned "[[[[…" to the end each time).
_WIKI_RE = re.compile(r"\[\[((?:(?!\[\[)[^\]|#\n])*)(?:#((?:(?!\[\[)[^\]|\n])*))?"
                      r"(?:\|((?:(?!\[\[)[^\]\n])*))?\]\]")
# Whitespace belongs to one quantifier only (the old "\s*(?:<p>)?\s*" split a run of it
# between two, in every possible way).
_TASK_RE = re.compile(r"<li>(\s*(?:<p>\s*)?)\[([ xX])\]\s")
_ALIGN_RE = re.compile(r'<(td|th) style="text-align: ?(left|right|center);?">')
# The code may not contain another "<pre><code": an unclosed opening costs one scan to
# the next opening, not one to the end of the text.
_PRE_RE = re.compile(r'<pre><code(?: class="language-([^"]*)")?>((?:(?!</code></pre>|<pre><code).)*)</code></pre>',
                     re.S)
_HEADING_RE = re.compile(r'<h([1-6]) id="([^"]*)">')
_TAG_RE = re.compile(r"<[^<>]+>")
_STYLES = {False: "friendly", True: "monokai"}
_NOTICE_STYLE = "color: #b3541e"


@dataclass
class RenderedNote:
    html: str
    front: FrontMatter
    headings: list[tuple[int, str, str]] = field(default_factory=list)  # level, text, anchor
    problems: list[str] = field(default_factory=list)
    code_blocks: list[str] = field(default_factory=list)  # source text, for "copy:N" links
    notice: str = ""  # why the note is shown as plain text (also at the top of `html`); "" when formatted
    limit: RenderLimit | None = None  # the limit behind `notice`


@dataclass(frozen=True)
class RenderLimit:
    """Which display limit a note passed, with what the notice says about it.

    kind: size (amount/limit: sizes as text) | depth (amount levels, limit, line or 0) |
    inline (amount open inline tags, limit) | tables (amount levels, limit) | work (reason,
    line) | recursion. `shown` is how many characters the plain text shows when cut short.
    """

    kind: str
    amount: str = ""
    limit: str = ""
    line: int = 0
    reason: str = ""
    shown: int = 0


_translator: Callable[[RenderLimit], tuple[str, str]] | None = None


def set_notice_translator(translate: Callable[[RenderLimit], tuple[str, str]] | None) -> None:
    """Have notices worded by `translate(limit) -> (notice, help)` (the UI's language); None: English."""
    global _translator
    _translator = translate


def notice_text(limit: RenderLimit) -> str:
    """The English notice: what limit the note passed, and that it is shown as plain text."""
    kind = limit.kind
    if kind == "size":
        text = (f"This note is {limit.amount}, over the {limit.limit} limit for formatted display; "
                "shown as plain text.")
    elif kind in ("depth", "inline"):
        where = f" at line {limit.line}" if limit.line else ""
        text = (f"This note is nested {limit.amount} levels deep{where}, over the limit of {limit.limit} "
                "for formatted display; shown as plain text.")
    elif kind == "tables":
        text = (f"This note has tables nested {limit.amount} deep, over the limit of {limit.limit} "
                "for formatted display; shown as plain text.")
    elif kind == "work":
        text = (f"This note has {limit.reason} around line {limit.line}, which would take too long to format; "
                "shown as plain text.")
    else:
        text = "This note is nested too deeply to format; shown as plain text."
    if limit.shown:
        text = text.removesuffix(".") + f" (its first {limit.shown:,} characters)."
    return text


def limit_help(limit: RenderLimit) -> str:
    """Whether the limit can be raised (it cannot) and what to change in the note instead."""
    if limit.kind == "size":
        change = "split the note into smaller notes"
    elif limit.kind == "work":
        change = "close or remove the markup named above"
    else:
        change = "reduce how deeply it nests"
    return (f"This limit is fixed and cannot be raised; the file itself is not changed. To see the note "
            f"formatted, {change}.")


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
    # The text colour is set for both themes: text the lexer leaves uncoloured (and a block
    # without a language) must not take the widget's palette colour, light under a dark theme.
    fg = "#f8f8f2" if dark else "#1f2328"
    return (
        f'<table width="100%" cellpadding="8" cellspacing="0" class="code"><tr><td bgcolor="{color}">'
        f'<pre style="margin:0; color: {fg}">{code.rstrip(chr(10))}</pre></td></tr>{copy}</table>'
    )


def _toc_headings(tokens, out) -> None:
    for tok in tokens:
        out.append((tok["level"], html.unescape(_TAG_RE.sub("", tok["name"])), tok["id"]))
        _toc_headings(tok.get("children", []), out)


def render_markdown(text: str, dark: bool = False, base_dir: Path | None = None,
                    copy_label: str = "", titles: dict[str, str] | None = None,
                    hard_breaks: bool = True) -> RenderedNote:
    """Render a note (front matter included) to QTextBrowser-ready HTML.

    `base_dir` is the note's folder: relative images are resolved against it and a
    missing one becomes a visible placeholder. With `copy_label`, each code block gets
    a `copy:N` link under it (N indexes `code_blocks`). `titles` maps wiki-link targets
    to the titles shown for them. A note over a limit comes back as plain text with
    `notice` set; nothing here raises on any text. `hard_breaks` (notes: a line break
    the user typed is kept) off gives standard Markdown, where a single newline only wraps
    the source (drill statements, wrapped at ~95 columns); a wrap between two CJK
    characters then joins without a space, as CSS joins such segment breaks.
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FORMATTED_BYTES:
        return _plain(text, FrontMatter(), RenderLimit("size", _megabytes(size), _megabytes(MAX_FORMATTED_BYTES)))
    front, body = split_front_matter(text)  # never raises: a bad block comes back as front.error
    problems = [front.error] if front.error else []
    if _unclosed_fence(body):
        problems.append("a code fence is not closed; rendered up to the end of the note")
        body += "\n```\n"
    shape = measure_shape(body, MAX_PARSE_WORK)
    if shape.depth > MAX_NESTING:
        return _plain(text, front, RenderLimit("depth", str(shape.depth), str(MAX_NESTING), shape.depth_line))
    if shape.work > MAX_PARSE_WORK:
        return _plain(text, front, RenderLimit("work", line=shape.work_line, reason=shape.work_reason))
    try:
        return _format(text, front, body, problems, dark, base_dir, copy_label, titles, hard_breaks)
    except RecursionError:  # a shape the scan did not foresee; never a crash
        return _plain(text, front, RenderLimit("recursion"))


def _format(text: str, front: FrontMatter, body: str, problems: list[str], dark: bool,
            base_dir: Path | None, copy_label: str, titles: dict[str, str] | None,
            hard_breaks: bool = True) -> RenderedNote:
    extensions = ["fenced_code", "tables", "toc", "sane_lists", "footnotes"] + (["nl2br"] if hard_breaks else [])
    md = markdown.Markdown(
        extensions=extensions,
        extension_configs={"toc": {"slugify": slugify_unicode, "permalink": False}},
    )
    out = md.convert(_wiki_links(body, titles))
    if not hard_breaks:
        out = _join_cjk_wraps(out)
    blocks: list[str] = []
    out = _PRE_RE.sub(lambda m: _code_block(m, dark, blocks, copy_label), out)
    out = _ALIGN_RE.sub(lambda m: f'<{m.group(1)} align="{m.group(2)}">', out)
    out = _TASK_RE.sub(lambda m: "<li>" + m.group(1) + ("☑ " if m.group(2) in "xX" else "☐ "), out)
    out = _HEADING_RE.sub(lambda m: f'<h{m.group(1)} id="{m.group(2)}"><a name="{m.group(2)}"></a>', out)
    safe = SafeHtml(base_dir)
    out = safe.rebuild(out)
    if safe.max_depth > MAX_NESTING:
        return _plain(text, front, RenderLimit("depth", str(safe.max_depth), str(MAX_NESTING)))
    if safe.max_inline > MAX_INLINE_NESTING:
        return _plain(text, front, RenderLimit("inline", str(safe.max_inline), str(MAX_INLINE_NESTING)))
    if safe.max_tables > MAX_TABLE_NESTING:
        return _plain(text, front, RenderLimit("tables", str(safe.max_tables), str(MAX_TABLE_NESTING)))
    headings: list[tuple[int, str, str]] = []
    _toc_headings(getattr(md, "toc_tokens", []), headings)
    return RenderedNote(html=out, front=front, headings=headings, problems=problems, code_blocks=blocks)


# A source line wrap next to a CJK character (ideographs, kana, CJK and full-width
# punctuation): no space there, outside <pre> blocks.
_CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_WRAP_RE = re.compile(f"(?<=[{_CJK}])[ \\t]*\\n[ \\t]*|[ \\t]*\\n[ \\t]*(?=[{_CJK}])")
_PRE_SPLIT_RE = re.compile(r"(<pre\b.*?</pre>)", re.S)


def _join_cjk_wraps(html: str) -> str:
    parts = _PRE_SPLIT_RE.split(html)
    return "".join(part if i % 2 else _CJK_WRAP_RE.sub("", part) for i, part in enumerate(parts))


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


# --- limits ------------------------------------------------------------------------------

def _megabytes(size: int) -> str:
    shown = f"{size / 1_000_000:.1f}".removesuffix(".0")
    if size != MAX_FORMATTED_BYTES and shown == _megabytes(MAX_FORMATTED_BYTES).removesuffix(" MB"):
        return f"{size:,} bytes"  # "1 MB, over the 1 MB limit" would read as a contradiction
    return f"{shown} MB"


def _plain(text: str, front: FrontMatter, limit: RenderLimit) -> RenderedNote:
    """The note as escaped, preformatted text under the notice (its first 5 million characters)."""
    text = text.lstrip("\ufeff")
    if len(text) > MAX_PLAIN_CHARS:
        text = text[:MAX_PLAIN_CHARS]
        limit = RenderLimit(limit.kind, limit.amount, limit.limit, limit.line, limit.reason, MAX_PLAIN_CHARS)
    notice, help_text = notice_text(limit), limit_help(limit)
    if _translator is not None:
        try:
            notice, help_text = _translator(limit)
        except Exception:  # a wording problem must never hide the note: English instead
            pass
    page = (f'<p style="{_NOTICE_STYLE}">⚠ {html.escape(notice)}<br>{html.escape(help_text)}</p>'
            f'<pre style="white-space: pre-wrap">{html.escape(text)}</pre>')
    return RenderedNote(html=page, front=front, notice=notice, limit=limit)
