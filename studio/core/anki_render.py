"""Card text as Anki shows it: Markdown rendered to HTML, the chosen language(s), media.

A card's fields are Markdown (fenced code, tables, inline code, lists, images). Anki shows
field HTML in a web view, so each side is rendered by markdown_render (Python-Markdown,
Pygments with inline styles: no add-on or stylesheet needed for the colours) and its images
are collected as media files. Cloze deletions ("{{c1::answer::hint}}") are kept as Anki
clozes: they are swapped for plain-letter placeholders before rendering, so neither Markdown
nor a code lexer can split them, and put back afterwards.

Language: "en", "zh" or "both" (English, a divider, Chinese). A side with no text in the
chosen language falls back to the other one, so no card is exported empty.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.decks import iter_clozes
from studio.core.markdown_render import render_markdown

LANGUAGES = ("en", "zh", "both")
DIVIDER = '<hr class="lang-divider">'

# Letters only: every lexer reads each as one identifier and Markdown gives them no meaning.
_OPEN, _HINT, _CLOSE = "ZqClozeOpen{}Zq", "ZqClozeHintZq", "ZqClozeEndZq"
_PLACEHOLDER = re.compile(r"ZqCloze(?:Open(\d+)|Hint|End)Zq")
_IMG_SRC = re.compile(r'<img src="([^"]*)"')
_MEDIA_EXT = {"image/png": ".png", "image/jpeg": ".jpg", "image/jpg": ".jpg", "image/gif": ".gif",
              "image/webp": ".webp", "image/bmp": ".bmp", "image/svg+xml": ".svg"}
_MAX_MEDIA_BYTES = 50 * 1024 * 1024


@dataclass
class Media:
    """Files to ship with the deck: Anki name -> bytes, and what could not be included."""

    files: dict[str, bytes] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, data: bytes, ext: str) -> str:
        name = f"studio-{hashlib.sha1(data).hexdigest()[:16]}{ext}"
        self.files.setdefault(name, data)
        return name


def _protect_clozes(text: str) -> str:
    out, pos = [], 0
    for start, end, number, answer, hint in iter_clozes(text):
        out.append(text[pos:start])
        out.append(_OPEN.format(number) + answer + (_HINT + hint if hint is not None else "") + _CLOSE)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _restore_clozes(rendered: str) -> str:
    def back(m: re.Match) -> str:
        if m.group(1) is not None:
            return "{{c" + m.group(1) + "::"
        return "::" if m.group(0) == _HINT else "}}"

    return _PLACEHOLDER.sub(back, rendered)


def _media_src(src: str, media: Media, where: str) -> str | None:
    """The media name for an image source (a local file or data: URL), or None to drop it."""
    raw = html.unescape(src)
    if raw.lower().startswith("data:"):
        head, _, payload = raw.partition(",")
        mime = head[5:].split(";")[0].lower()
        try:
            data = base64.b64decode(payload, validate=False) if ";base64" in head.lower() else payload.encode()
        except (binascii.Error, ValueError):
            media.problems.append(f"{where}: an embedded image cannot be decoded; left out")
            return None
        return media.add(data, _MEDIA_EXT.get(mime, ".bin"))
    local = raw[len("file://"):] if raw.lower().startswith("file://") else raw
    path = Path(local)
    try:
        if not path.is_absolute() or not path.is_file():
            media.problems.append(f"{where}: image {raw} not found; left out")
            return None
        if path.stat().st_size > _MAX_MEDIA_BYTES:
            media.problems.append(f"{where}: image {raw} is over 50 MB; left out")
            return None
        data = path.read_bytes()
    except (OSError, ValueError) as exc:
        media.problems.append(f"{where}: image {raw} cannot be read ({exc}); left out")
        return None
    ext = path.suffix.lower() or _MEDIA_EXT.get(mimetypes.guess_type(path.name)[0] or "", "")
    return media.add(data, ext)


def render_side(text: str, media: Media, base_dir: Path | None = None, where: str = "") -> str:
    """One side of a card (Markdown, possibly with clozes) as Anki field HTML."""
    if not text.strip():
        return ""
    rendered = render_markdown(_protect_clozes(text), dark=False, base_dir=base_dir).html
    rendered = _restore_clozes(rendered)

    def image(m: re.Match) -> str:
        name = _media_src(m.group(1), media, where)
        return f'<img src="{html.escape(name)}"' if name else '<img alt="(image left out)" src=""'

    return _IMG_SRC.sub(image, rendered)


def pick_languages(en: str, zh: str, language: str) -> list[tuple[str, str]]:
    """(language, text) to show for a side, in order; a missing language falls back to the other."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    have = [(lang, text) for lang, text in (("en", en), ("zh", zh)) if text.strip()]
    if language == "both" or len(have) < 2:
        return have
    return [pair for pair in have if pair[0] == language]


def render_bilingual(en: str, zh: str, language: str, media: Media, base_dir: Path | None = None,
                     where: str = "") -> str:
    """A side in the chosen language(s): with "both", English, a divider, then Chinese."""
    blocks = []
    for lang, text in pick_languages(en, zh, language):
        body = render_side(text, media, base_dir, where)
        if body:
            blocks.append(f'<div class="lang-{lang}" lang="{"zh-CN" if lang == "zh" else "en"}">{body}</div>')
    return DIVIDER.join(blocks)


CARD_CSS = """.card { font-family: -apple-system, "Segoe UI", Roboto, "Noto Sans", "PingFang SC", "Microsoft YaHei",
  sans-serif; font-size: 18px; text-align: left; color: #1f2328; background: #ffffff; line-height: 1.45; }
.nightMode .card, .card.nightMode { color: #e6edf3; background: #1e1e1e; }
pre { white-space: pre-wrap; word-break: break-word; font-size: 15px; }
table.code { border-radius: 6px; margin: 6px 0; }
code { font-family: "SFMono-Regular", Consolas, "Liberation Mono", Menlo, monospace; font-size: 0.92em;
  background: rgba(127, 127, 127, 0.15); padding: 0 3px; border-radius: 3px; }
pre code, table.code code { background: none; padding: 0; }
table:not(.code) { border-collapse: collapse; margin: 6px 0; }
table:not(.code) td, table:not(.code) th { border: 1px solid #c0c4c8; padding: 3px 8px; }
img { max-width: 100%; }
hr.lang-divider { border: none; border-top: 2px dashed #8a8f98; margin: 14px 0; }
.lang-zh { font-size: 0.97em; }
.cloze { font-weight: bold; color: #0a58ca; }
.nightMode .cloze { color: #7ab7ff; }
"""

__all__ = ["LANGUAGES", "DIVIDER", "CARD_CSS", "Media", "render_side", "render_bilingual", "pick_languages"]
