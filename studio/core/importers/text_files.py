"""Reading user files the way they were saved, and saying so when the encoding is a guess.

UTF-8 (with or without BOM) and UTF-16 with a BOM are read as they are. Anything else goes
to charset-normalizer, whose reading is trusted only when it is clear:
- its best reading is not messy (chaos at most SURE_CHAOS), and among its readings with the
  least mess (chaos within CHAOS_MARGIN of the best) there is one text, or one whose
  language coherence leads the others' by COHERENCE_MARGIN; or
- GB18030 is among those readings and at least GB2312_SHARE of its non-ASCII characters are
  common simplified Chinese (GB2312). Chinese notes saved by Windows editors look like
  that; Latin-1, Shift-JIS or Big5 bytes read as GB18030 do not, because their second bytes
  fall outside GB2312's range and come out as rare characters.
Otherwise the encoding is unclear: `read_text` raises EncodingUnclear with the candidates,
best guess first, and the caller asks the user (the CLI's --encoding, the import preview's
choice). `read_for_import` is that decision for every importer (notes, Anki CSV/TSV): a
file's chosen encoding, the one given for unclear files, the best guess (the preview) or a
refusal, and a `FileEncoding` saying how a file that is not UTF-8 was read, for the summary. Latin-1, cp1250 and cp1257 give the same scores to most Western text, so such
files are asked about rather than silently read in the wrong one.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from pathlib import Path

from charset_normalizer import from_bytes

MAX_BYTES = 20 * 1024 * 1024
SURE_CHAOS = 0.15
CHAOS_MARGIN = 0.02
COHERENCE_MARGIN = 0.2
GB2312_SHARE = 0.95
MAX_CANDIDATES = 6
# Among readings that score the same, the one more people save in comes first.
_COMMON = ("gb18030", "cp1252", "big5", "cp932", "cp949", "cp1251", "cp1250", "iso8859_15")


class UnreadableFile(ValueError):
    """A file that is not text in a supported encoding (or too large); the message says which."""


class EncodingUnclear(UnreadableFile):
    """Text whose encoding cannot be told for sure; `candidates` are the plausible ones, best first."""

    def __init__(self, candidates: list[str], message: str = ""):
        self.candidates = candidates
        super().__init__(message or "not UTF-8 or GB18030 text, and its encoding is not clear "
                         f"(it may be {_or_list(candidates)})")


class EncodingDoesNotFit(EncodingUnclear):
    """The encoding chosen for a file cannot read it; `candidates` start with that one."""


@dataclass
class FileEncoding:
    """How a file that is not UTF-8 was read: how is detected | guessed | chosen | option."""

    name: str
    how: str
    candidates: list[str] = field(default_factory=list)
    sample: str = ""  # the first line with non-ASCII text, as read, for the preview


@dataclass
class Reading:
    """A decoded file: its text, the encoding used and whether that was a sure thing."""

    text: str
    encoding: str
    sure: bool = True
    candidates: list[str] = field(default_factory=list)  # plausible encodings, best first


def _or_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def check_encoding(name: str) -> str:
    """The name if Python knows such a codec; else UnreadableFile naming it."""
    try:
        codecs.lookup(name)
    except LookupError:
        raise UnreadableFile(f"unknown encoding {name!r} (e.g. latin-1, cp1252, gb18030, big5)") from None
    return name


def decode_as(data: bytes, encoding: str) -> str:
    """Strictly decode with a named encoding; a byte that does not fit is reported with its offset."""
    check_encoding(encoding)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"not {encoding} text ({exc.reason} at byte {exc.start})") from exc


def gb2312_share(text: str) -> float:
    """Share of the non-ASCII characters that are common simplified Chinese (GB2312); 1.0 if none."""
    ascii_count = len(text.encode("ascii", "ignore"))
    non_ascii = len(text) - ascii_count
    if not non_ascii:
        return 1.0
    return (len(text.encode("gb2312", "ignore")) - ascii_count) / 2 / non_ascii


def detect(data: bytes) -> Reading:
    """The detector's reading of bytes that are not UTF-8, with `sure` set by the rule above."""
    matches = list(from_bytes(data))
    if not matches:
        raise UnreadableFile("not text in UTF-8, GB18030 or any other encoding we recognise")
    best_chaos = min(m.chaos for m in matches)
    close = [m for m in matches if m.chaos <= best_chaos + CHAOS_MARGIN]
    texts = {m.encoding: str(m) for m in matches}
    gb = next((m for m in matches if "gb18030" in m.could_be_from_charset), None)
    gb_like = gb is not None and gb2312_share(texts[gb.encoding]) >= GB2312_SHARE
    chinese = gb_like and any(m is gb for m in close)

    def rank(m) -> tuple:
        # Chinese-looking GB18030 first; GB18030 that reads as rare characters last.
        first = 0 if (chinese and m is gb) else 2 if (m is gb and not gb_like) else 1
        common = min((_COMMON.index(n) for n in m.could_be_from_charset if n in _COMMON), default=len(_COMMON))
        return (first, round(m.chaos, 3), -round(m.coherence, 3), common)

    ordered = sorted(matches, key=rank)
    names = [_name(m) for m in ordered][:MAX_CANDIDATES]
    top = ordered[0]
    others = [m for m in close if m is not top]
    sure = chinese or top.chaos <= SURE_CHAOS and (
        not others or all(top.coherence >= m.coherence + COHERENCE_MARGIN for m in others))
    return Reading(texts[top.encoding], names[0], sure, names)


def _name(match) -> str:
    """The best-known name among the codecs that give this same text."""
    for name in _COMMON:
        if name in match.could_be_from_charset:
            return name
    return match.encoding


def read_file(path: Path, encoding: str | None = None, max_bytes: int = MAX_BYTES) -> Reading:
    """Read a file: UTF-8 as is; otherwise as `encoding` when given, else as detected.

    Raises UnreadableFile for binary, oversized or undecodable files; an unclear detection
    comes back with sure=False (see `read_text` for the raising form).
    """
    size = path.stat().st_size
    if size > max_bytes:
        raise UnreadableFile(f"{size / 1e6:.1f} MB is over the {max_bytes / 1e6:.0f} MB limit")
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        return Reading(decode_as(data[3:], "utf-8"), "utf-8-sig")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return Reading(decode_as(data, "utf-16"), "utf-16")
    if b"\x00" in data[:8192]:
        raise UnreadableFile("binary file (contains NUL bytes), not Markdown text")
    try:
        return Reading(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    if encoding:
        return Reading(decode_as(data, encoding), encoding)
    return detect(data)


def sample_line(text: str) -> str:
    """The first line holding non-ASCII text: what shows whether an encoding reads right."""
    for line in text.splitlines():
        if any(ord(ch) > 127 for ch in line):
            return line.strip()[:160]
    return ""


def read_for_import(path: Path, chosen: str | None = None, fallback: str | None = None, guess: bool = False,
                    max_bytes: int = MAX_BYTES) -> tuple[Reading, FileEncoding | None]:
    """Read a file to import, deciding its encoding the one way every importer does.

    `chosen` is the user's encoding for this file (the preview's choice), `fallback` the one
    for files whose encoding is unclear (the CLI's --encoding); neither applies to UTF-8.
    Without them an unclear file is read in the best guess when `guess` (the preview shows
    it flagged), else refused with EncodingUnclear. A chosen encoding that cannot read the
    file raises EncodingDoesNotFit. Returns the reading and, for a file that is not UTF-8,
    how it was read (None for UTF-8). Other unreadable files raise UnreadableFile.
    """
    reading = read_file(path, max_bytes=max_bytes)
    utf8 = reading.encoding in ("utf-8", "utf-8-sig")
    candidates, given, how = reading.candidates, None, "detected"
    if chosen:
        given, how = chosen, "chosen"
    elif not reading.sure and fallback:
        given, how = fallback, "option"
    if given and not utf8:
        try:
            reading = read_file(path, given, max_bytes)
        except UnreadableFile as exc:
            raise EncodingDoesNotFit(list(dict.fromkeys([given] + candidates)), str(exc)) from exc
    elif not reading.sure and guess:
        how = "guessed"
    elif not reading.sure:
        raise EncodingUnclear(candidates)
    if utf8:
        return reading, None
    names = list(dict.fromkeys([reading.encoding] + candidates))
    return reading, FileEncoding(reading.encoding, how, names, sample_line(reading.text))


def refusal(path: Path, exc: UnreadableFile) -> str:
    """The problem line for a file `read_for_import` refused, saying how to get it read."""
    if isinstance(exc, EncodingDoesNotFit):
        return f"{path}: skipped: {exc}; choose another encoding"
    if isinstance(exc, EncodingUnclear):
        return (f"{path}: skipped: {exc}; import it with --encoding NAME, e.g. --encoding {exc.candidates[0]}, "
                "or choose its encoding in the import preview")
    return f"{path}: skipped: {exc}"


def read_text(path: Path, max_bytes: int = MAX_BYTES, encoding: str | None = None) -> tuple[str, str]:
    """Return (text, encoding name) or raise UnreadableFile (EncodingUnclear when unsure)."""
    reading = read_file(path, encoding, max_bytes)
    if not reading.sure:
        raise EncodingUnclear(reading.candidates)
    return reading.text, reading.encoding
