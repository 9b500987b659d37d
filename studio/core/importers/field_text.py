"""Anki field HTML as Markdown-ish text, and the field names a card template shows.

Fields are read with html.parser, fed one "<...>" piece at a time: the text is cut into runs
without '<' and pieces from a '<' to the next '>', each handed to the parser once, so every
step is linear in the field's length. The regex cleanup this replaces backtracked (41 s on an
8 KB field built against its <img> pattern), and html.parser itself has been quadratic on
unclosed constructs when fed a whole document (CPython gh-135462, CVE-2025-6069: 29 s for a
100 KB field on Python 3.11.7); a piece that ends at its only '>' never holds one. Ordinary
fields read as the regexes read them; tests pin that, and the few deliberate differences.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_BLOCK_ENDS = {"div", "p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr"}
_SKIPPED = ("script", "style")  # code, not card text
_PLAIN_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\s*(/?)>")


class _FieldText(HTMLParser):
    """A field's text: <br> and block ends as newlines, <li> as "- ", <img> as "[image: src]",
    <pre> as a fenced block, other tags dropped, entities decoded."""

    CDATA_CONTENT_ELEMENTS = ()  # html_to_text skips <script>/<style> bodies itself

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        # Inside <pre>: its text for the fence, and the same part read as ordinary HTML, which
        # is what stays if the <pre> is never closed.
        self.pre: list[str] | None = None
        self.shadow: list[str] = []
        self.skip: str | None = None

    def text(self, raw: str) -> None:
        """Text with no markup in it (a run between tags, or a '<' that opens nothing)."""
        self.handle_data(html.unescape(raw))

    def markup(self, piece: str) -> None:
        """One '<...>' piece: at most one tag, ending at its only '>'."""
        plain = _PLAIN_TAG.fullmatch(piece)
        if plain:  # "<b>", "</div>", "<br/>": what the parser would report, without its set-up
            tag = plain.group(2).lower()
            if not plain.group(1):
                self.handle_starttag(tag, [])
            if plain.group(1) or plain.group(3):
                self.handle_endtag(tag)
            return
        # Marked sections ("<![CDATA[") mean nothing in a field, and the 3.11 parser raises on
        # unknown ones: they stay text, as the regex cleanup left them.
        self.feed(piece.replace("<![", "&lt;!["))
        self.close()

    def finish(self) -> str:
        if self.pre is not None:
            self.out.extend(self.shadow)
        return "".join(self.out)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        sink = self.out if self.pre is None else self.shadow
        if tag == "br":
            sink.append("\n")
            if self.pre is not None:
                self.pre.append("\n")
        elif tag == "pre" and self.pre is None:
            self.pre, self.shadow = [], []
        elif tag == "li":
            sink.append("- ")
        elif tag == "img":
            src = next((v for k, v in attrs if k == "src" and v), None)
            if src:
                sink.append(f"[image: {src}]")
        elif tag in _SKIPPED:
            self.skip = tag

    def handle_endtag(self, tag: str) -> None:
        if self.pre is not None and tag == "pre":
            self.out.append("\n```\n" + "".join(self.pre).strip("\n") + "\n```\n")
            self.pre = None
        elif tag in _BLOCK_ENDS:
            (self.out if self.pre is None else self.shadow).append("\n")

    def handle_data(self, data: str) -> None:
        if self.pre is None:
            self.out.append(data)
        else:
            self.pre.append(data)
            self.shadow.append(data)


def html_to_text(value: str) -> str:
    """Anki field HTML as Markdown-ish text: <br>/blocks become newlines, <pre> a code fence.

    Linear in the length of `value`: the text is cut into runs without '<' and pieces from a
    '<' to the next '>', each handed to the parser once; a '<' with no '>' after it is text.
    """
    if "<" not in value and "&" not in value:
        return _tidy(value)
    parser = _FieldText()
    lowered: str | None = None
    pos, n = 0, len(value)
    while pos < n:
        lt = value.find("<", pos)
        if lt < 0:
            parser.text(value[pos:])
            break
        if lt > pos:
            parser.text(value[pos:lt])
        gt = value.find(">", lt + 1)
        if gt < 0:
            parser.text(value[lt:])
            break
        parser.markup(value[lt:gt + 1])
        pos = gt + 1
        if parser.skip:  # a <script>/<style> body: drop it up to its end tag
            lowered = lowered if lowered is not None else value.lower()
            end = lowered.find("</" + parser.skip, pos)
            parser.skip = None
            if end < 0:
                break
            pos = end
    return _tidy(parser.finish())


def _tidy(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text.replace("\xa0", " ")).strip()


def text_to_html(text: str) -> str:
    """The inverse for export: escaped text with <br> for newlines."""
    return html.escape(text, quote=False).replace("\n", "<br>")


_FILTER = re.compile(r"[a-zA-Z-]+")


def field_refs(template: str) -> list[str]:
    """The field names a card template shows ("{{Front}}", "{{cloze:Text}}", "{{#Tags}}").

    One pass: a reference runs from "{{" to the first "}", which must start "}}"; so a "{{"
    without one, however many, costs nothing more than reading past it.
    """
    out: list[str] = []
    pos = 0
    while True:
        start = template.find("{{", pos)
        if start < 0:
            return out
        close = template.find("}", start + 2)
        if close < 0:
            return out
        if not template.startswith("}}", close):
            pos = close + 1
            continue
        pos = close + 2
        name = template[start + 2:close].strip()
        if name[:1] in ("#", "^", "/"):
            name = name[1:].lstrip()
        parts = name.split(":")
        skip = 0
        while skip < len(parts) - 1 and _FILTER.fullmatch(parts[skip]):
            skip += 1
        name = ":".join(parts[skip:]).strip()
        if name and name[0] not in "#^/":
            out.append(name)


__all__ = ["html_to_text", "text_to_html", "field_refs"]
