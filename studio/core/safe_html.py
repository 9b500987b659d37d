"""Rendered HTML rebuilt so that nothing in it can fetch from outside, and its nesting measured.

One html.parser pass over the renderer's final HTML rebuilds every tag with only the
attributes that cannot name a URL (whatever the quoting or entity encoding, which the
parser undoes), drops <script>, <style>, <link>, <meta> and <base>, keeps images only
from local files or embedded raster data: URLs, and turns a remote image into a
"[remote image: host]" link the user may click. It also measures how deep block
elements, inline elements and tables nest: Qt's rich-text layout slows down with the
square of the first two and doubles its time with every table level.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

_VOID = frozenset("area base br col embed hr img image input keygen link meta param source track wbr".split())
# Elements Qt closes by themselves when a sibling opens; they do not nest.
_NO_LEVEL = frozenset("p li dt dd tr td th thead tbody tfoot option colgroup caption html head body".split())
_INLINE = frozenset("a abbr b big cite code del dfn em font i ins kbd mark q s samp small span strike strong "
                    "sub sup tt u var".split())
_SKIP_WITH_CONTENT = frozenset(("script", "style", "template"))
_DROP = frozenset(("link", "meta", "base"))
# Attributes that cannot name a URL (style is checked apart). Everything else goes:
# src, srcset, href outside <a>, xlink:href, background, poster, data, action...
_SAFE_ATTRS = frozenset(
    "id name class title alt width height align valign colspan rowspan bgcolor color face size "
    "cellpadding cellspacing border start type value dir lang checked disabled nowrap span".split())
_URL_NOISE = re.compile(r"[\x00-\x20\x7f]+")  # browsers ignore these inside a URL
_SCHEME_RE = re.compile(r"[a-z][a-z0-9+.\-]*:")
_DATA_IMAGE = re.compile(r"data:image/(?:png|jpeg|jpg|gif|webp|bmp)[;,]")
_COMMENT_CLOSE = re.compile(r"--\s*>")  # what html.parser (_markupbase) searches for after "<!--"


def unclosed_comments_as_text(text: str) -> str:
    """Every "<!--" with no comment end after it escaped, in one pass.

    html.parser searches the rest of the text for the end of each comment it meets, and on
    an unclosed one moves on by a character: a raw HTML block holding "<!--x>" a few
    thousand times took minutes (CPython gh-135462). It shows such a comment as text
    anyway; here it is text from the start. A "<!--" at i is closed when an end starts at
    i + 4 or later, so only those after the last end are touched.
    """
    if "<!--" not in text:
        return text
    last = -1
    for m in _COMMENT_CLOSE.finditer(text):
        last = m.start()
    split = max(0, last - 3)
    return text[:split] + text[split:].replace("<!--", "&lt;!--")


def image_source_kind(src: str) -> str:
    """'local' (a path or file:///), 'data' (an embedded raster image), 'web' or 'other'.

    Decided on the URL as a browser would read it: whitespace and control characters
    removed, any case; protocol-relative '//host' is on the web, '\\\\host' is a
    network share ('other'), 'C:/…' is a Windows path.
    """
    probe = _URL_NOISE.sub("", src).lower()
    if probe.startswith("data:"):
        return "data" if _DATA_IMAGE.match(probe) else "other"
    if probe.startswith(("\\\\", "/\\", "\\/")):  # a network share, or "//" to a browser
        return "other"
    if probe.startswith("//"):
        return "web"
    m = _SCHEME_RE.match(probe)
    if not m:
        return "other" if "://" in probe else "local"  # '"http://…', '%68ttp://…': not a path
    scheme = m.group()[:-1]
    if len(scheme) == 1:
        return "local"
    if scheme == "file":
        rest = probe[len("file:"):].replace("\\", "/")
        return "local" if not rest.startswith("//") or rest.startswith(("///", "//localhost/")) else "other"
    return "web" if scheme in ("http", "https") else "other"


_CSS_FETCHING = ("url(", "image", "expression(", "src(", "element(")


def _safe_style(value: str) -> bool:
    """An inline style that cannot fetch: no url(), image-set()…, no escapes, comments or @-rules.

    Escapes and comments could spell "url(" in pieces, so any style holding one is
    dropped whole; colours like rgb(…) are kept.
    """
    css = value.lower()
    if "\\" in css or "@" in css or "/*" in css:
        return False
    css = "".join(css.split())
    return not any(f in css for f in _CSS_FETCHING)


def _attrs(pairs) -> str:
    return "".join(f" {k}" if v is None else f' {k}="{html.escape(v)}"' for k, v in pairs)


class SafeHtml(HTMLParser):
    """Rebuilds HTML tag by tag with only attributes that cannot fetch; measures nesting."""

    def __init__(self, base_dir: Path | None):
        super().__init__(convert_charrefs=True)
        self.base_dir = base_dir
        self.out: list[str] = []
        self.stack: list[str] = []
        self.open: dict[str, int] = {}
        self.inline = 0  # inline elements in the stack
        self.max_depth = 0  # block levels
        self.max_inline = 0
        self.max_tables = 0
        self.skipping = 0

    def rebuild(self, text: str) -> str:
        self.feed(unclosed_comments_as_text(text))
        self.close()
        return "".join(self.out)

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, closed=True)

    def _start(self, tag: str, attrs, closed: bool) -> None:
        if tag in _SKIP_WITH_CONTENT:
            self.skipping += not closed
            return
        if self.skipping or tag in _DROP:
            return
        if tag in ("img", "image"):
            self.out.append(self._image(attrs))
            return
        kept = [(k, v) for k, v in attrs
                if (k == "href" and tag == "a") or (k == "style" and v is not None and _safe_style(v))
                or k in _SAFE_ATTRS]
        self.out.append(f"<{tag}{_attrs(kept)}{' /' if closed else ''}>")
        if not closed and tag not in _VOID and tag not in _NO_LEVEL:
            self.stack.append(tag)
            self.open[tag] = self.open.get(tag, 0) + 1
            if tag in _INLINE:
                self.inline += 1
                self.max_inline = max(self.max_inline, self.inline)
            else:
                self.max_depth = max(self.max_depth, len(self.stack) - self.inline)
                self.max_tables = max(self.max_tables, self.open.get("table", 0))

    def handle_endtag(self, tag):
        if tag in _SKIP_WITH_CONTENT:
            self.skipping = max(0, self.skipping - 1)
            return
        if self.skipping or tag in _DROP or tag in _VOID:
            return
        self.out.append(f"</{tag}>")
        if self.open.get(tag):
            while True:  # also closes what was left open inside it
                top = self.stack.pop()
                self.open[top] -= 1
                self.inline -= top in _INLINE
                if top == tag:
                    break

    def handle_data(self, data):
        if not self.skipping:
            self.out.append(html.escape(data, quote=False))

    def _image(self, attrs) -> str:
        values: dict[str, str] = {}
        for k, v in attrs:
            values.setdefault(k, v or "")
        srcset = values.get("srcset", "").strip().split(",")[0].split()
        src = values.get("src") or values.get("href") or values.get("xlink:href") or (srcset[0] if srcset else "")
        alt = values.get("alt", "")
        kind = image_source_kind(src)
        if kind == "web":
            url = _URL_NOISE.sub("", src)
            url = "https:" + url if url.startswith("//") else url
            try:
                host = urlsplit(url).hostname or url
            except ValueError:
                host = url
            label = f"[remote image: {host}{' — ' + alt if alt else ''}]"
            return f'<a href="{html.escape(url)}">{html.escape(label)}</a>'
        if kind == "other" or not src:
            return f"<i>[image not loaded: {html.escape(alt or src[:80] or 'no source')}]</i>" if (src or alt) else ""
        kept = [(k, v) for k, v in attrs if k in _SAFE_ATTRS or (k == "style" and v is not None and _safe_style(v))]
        if kind == "local" and self.base_dir is not None:
            local = src[len("file://"):] if src.lower().startswith("file://") else src
            path = Path(local) if Path(local).is_absolute() else Path(self.base_dir) / local
            try:
                found = path.is_file()
            except (OSError, ValueError):
                found = False
            if not found:
                return f"<i>[image not found: {html.escape(alt or src)}]</i>"
            src = path.as_posix()
        return f'<img src="{html.escape(src)}"{_attrs(kept)}>'
