"""What one imported deck may cost, and reading a package entry within it.

Shared decks are not trusted: an .apkg is a zip, its collection may be zstd-compressed, and a
few kilobytes can expand to gigabytes. `extract_entry` streams an entry to a file CHUNK bytes
at a time and stops as soon as the output passes `Limits.max_entry_mb`, or expands more than
`Limits.max_ratio` times once past RATIO_FLOOR (so a bomb is caught early and a small, very
compressible collection is not); `Deadline` stops reading after `Limits.time_limit_s`. Each
message names the limit; its `hint` names the CLI flag that raises it, and its `limit`
(a LimitHit) says which limit and a raised value, so the import dialog can offer to read
the file again with it instead of naming a flag.
"""

from __future__ import annotations

import math
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

MB = 1024 * 1024
CHUNK = MB  # bytes read (and held) at a time while extracting
RATIO_FLOOR = 16 * MB  # below this much output the compression ratio is not judged


@dataclass(frozen=True)
class LimitHit:
    """Which limit stopped a file: a `Limits` field, its value, and a raised value to retry with."""

    name: str  # max_entry_mb | max_ratio | time_limit_s
    value: float
    raised: float
    flag: str  # the CLI flag that sets it

    @property
    def hint(self) -> str:
        return f"{self.flag} {self.raised:g}"


class AnkiFileProblem(ValueError):
    """A package that cannot be read at all; the message says why, `hint` how to get past it
    (on the command line), `limit` which limit stopped it, when one did."""

    def __init__(self, message: str, hint: str = "", limit: LimitHit | None = None) -> None:
        super().__init__(message)
        self.hint = hint
        self.limit = limit


class LimitExceeded(AnkiFileProblem):
    """An entry that expands past a limit; `produced` bytes came out before reading stopped."""

    def __init__(self, message: str, hint: str, produced: int, limit: LimitHit | None = None) -> None:
        super().__init__(message, hint, limit)
        self.produced = produced


@dataclass(frozen=True)
class Limits:
    """What one imported file may cost. A collection database rarely passes 200 MB (media, which
    is not read, is the large part of a package) and compresses about 4:1 (this app's own export
    of its 638 shipped cards: 3.7:1 deflate, 4.0:1 zstd); a bomb passes 1000:1."""

    max_entry_mb: float = 512
    max_ratio: int = 200
    time_limit_s: float = 60.0
    clock: Callable[[], float] = time.monotonic


class Deadline:
    """The end of one file's time budget; `check` raises once it has passed."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.end = limits.clock() + limits.time_limit_s

    def expired(self) -> bool:
        return self.limits.clock() > self.end

    def problem(self, where: str) -> AnkiFileProblem:
        limit = self.limits.time_limit_s
        hit = LimitHit("time_limit_s", limit, limit * 4, "--time-limit")
        return AnkiFileProblem(f"reading took longer than the {limit:g} s limit ({where})",
                               f"; if the deck is just very large, import it again with {hit.hint}", hit)

    def check(self, where: str) -> None:
        if self.expired():
            raise self.problem(where)


def _size(n: int) -> str:
    return f"{n} bytes" if n < 1024 else f"{n / 1024:.0f} KB" if n < MB else f"{n / MB:.0f} MB"


def _raised(limit_mb: float) -> int:
    return max(1, math.ceil(limit_mb * 4))


class _Meter:
    """A reader that counts what passes through and stops past the size or ratio limit."""

    def __init__(self, source, entry: str, compressed: int, limits: Limits, deadline: Deadline) -> None:
        self.source, self.entry, self.compressed = source, entry, max(1, compressed)
        self.limits, self.deadline = limits, deadline
        self.produced = 0

    def read(self, size: int = -1) -> bytes:
        data = self.source.read(CHUNK if size is None or size < 0 else min(size, CHUNK))
        self.produced += len(data)
        self._check()
        return data

    def _check(self) -> None:
        limits, produced = self.limits, self.produced
        ratio = produced // self.compressed
        if produced > limits.max_entry_mb * MB:
            hit = LimitHit("max_entry_mb", limits.max_entry_mb, _raised(limits.max_entry_mb), "--max-size")
            raise LimitExceeded(f"{self.entry} expands past the {limits.max_entry_mb:g} MB limit for one entry "
                                f"(ratio {ratio}:1 so far)",
                                f"; if you trust this deck, import it again with {hit.hint}", produced, hit)
        if produced > RATIO_FLOOR and ratio > limits.max_ratio:
            hit = LimitHit("max_ratio", limits.max_ratio, limits.max_ratio * 10, "--max-ratio")
            raise LimitExceeded(f"{self.entry} expands more than {limits.max_ratio} times "
                                f"({_size(produced)} from {_size(self.compressed)} so far), as archive bombs do",
                                f"; if you trust this deck, import it again with {hit.hint}", produced, hit)
        if self.deadline.expired():
            raise self.deadline.problem(f"extracting {self.entry}")


def extract_entry(zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, limits: Limits,
                  deadline: Deadline | None = None) -> int:
    """Stream one entry (zstd-decompressed for .anki21b) into `target`, CHUNK bytes at a time.

    Raises LimitExceeded as soon as the output passes the limits: at most the limit plus one
    chunk is ever decompressed, and only one chunk is held in memory. Returns the size.
    """
    deadline = deadline or Deadline(limits)
    name = info.filename
    with zf.open(info) as raw, open(target, "wb") as out:
        meter = stored = _Meter(raw, name, info.compress_size, limits, deadline)
        if name.endswith(".anki21b"):
            try:
                import zstandard
            except ImportError as exc:
                raise AnkiFileProblem("this package uses the newer compressed format (collection.anki21b); "
                                      "install the 'zstandard' package to import it") from exc
            reader = zstandard.ZstdDecompressor(max_window_size=1 << 27).stream_reader(stored, read_size=CHUNK)
            meter = _Meter(reader, name, info.compress_size, limits, deadline)
            try:
                while chunk := meter.read(CHUNK):
                    out.write(chunk)
            except zstandard.ZstdError as exc:
                raise AnkiFileProblem(f"collection.anki21b is damaged: {exc}") from exc
        else:
            while chunk := meter.read(CHUNK):
                out.write(chunk)
    return meter.produced


__all__ = ["AnkiFileProblem", "LimitExceeded", "LimitHit", "Limits", "Deadline", "extract_entry", "CHUNK", "MB", "RATIO_FLOOR"]
