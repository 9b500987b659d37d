"""Reading user files the way they were saved: UTF-8, UTF-8 with BOM, or GB18030."""

from __future__ import annotations

from pathlib import Path

MAX_BYTES = 20 * 1024 * 1024


class UnreadableFile(ValueError):
    """A file that is not text in a supported encoding (or too large); the message says which."""


def read_text(path: Path, max_bytes: int = MAX_BYTES) -> tuple[str, str]:
    """Return (text, encoding name) or raise UnreadableFile with a clear reason."""
    size = path.stat().st_size
    if size > max_bytes:
        raise UnreadableFile(f"{size / 1e6:.1f} MB is over the {max_bytes / 1e6:.0f} MB limit")
    data = path.read_bytes()
    if b"\x00" in data[:8192]:
        raise UnreadableFile("binary file (contains NUL bytes), not Markdown text")
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="strict"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"not UTF-8 or GB18030 text ({exc.reason} at byte {exc.start})") from exc
    return text, "gb18030"
