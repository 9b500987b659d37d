"""Hostile packages: archive bombs stop at the size and ratio limits, reading stops at the time limit.

The bombs are made here, small: megabytes of zeros compress to a few kilobytes, and the caps
are lowered through Limits so that the test shows where reading stops, not how much memory a
real bomb would take.
"""

from __future__ import annotations

import io
import sqlite3
import time
import tracemalloc
import zipfile

import pytest
import zstandard

from studio.app import main
from studio.core.importers import anki_limits
from studio.core.importers.anki import LimitExceeded, Limits, extract_entry, plan_cards
from tests.core.importers.test_anki import CARDS, NOTES, REVIEWS, _legacy_db, make_apkg

KB = 1024
MB = 1024 * KB


def _bomb(tmp_path, member: str, size: int, name: str = "bomb.apkg"):
    """A package whose collection entry is `size` zero bytes (zstd-compressed for .anki21b)."""
    path = tmp_path / name
    if member.endswith(".anki21b"):
        out = io.BytesIO()
        with zstandard.ZstdCompressor(level=3).stream_writer(out, closefd=False) as writer:
            for _ in range(size // MB):
                writer.write(bytes(MB))
        payload = out.getvalue()
    else:
        payload = bytes(size)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, payload)
    return path


def test_a_deflate_bomb_is_read_only_up_to_the_cap(tmp_path, monkeypatch):
    bomb = _bomb(tmp_path, "collection.anki2", 8 * MB)
    assert bomb.stat().st_size < 64 * KB
    monkeypatch.setattr(anki_limits, "CHUNK", 16 * KB)
    read: list[int] = []
    real_read = zipfile.ZipExtFile.read

    def counting_read(self, n=-1):
        data = real_read(self, n)
        read.append(len(data))
        return data

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting_read)
    limits = Limits(max_entry_mb=64 / 1024)  # 64 KB
    with zipfile.ZipFile(bomb) as zf, pytest.raises(LimitExceeded):
        extract_entry(zf, zf.getinfo("collection.anki2"), tmp_path / "out.sqlite", limits)
    assert sum(read) <= 64 * KB + 16 * KB  # stopped within one chunk of the cap, not 8 MB
    assert (tmp_path / "out.sqlite").stat().st_size <= 64 * KB
    plan = plan_cards(bomb, limits)
    assert plan.cards == [] and len(plan.problems) == 1
    assert plan.problems[0].startswith(f"{bomb}: collection.anki2 expands past the 0.0625 MB limit for one "
                                       "entry (ratio ")
    assert plan.problems[0].endswith(":1 so far); nothing imported; if you trust this deck, import it again "
                                     "with --max-size 1")


def test_a_zstd_bomb_is_decompressed_only_up_to_the_cap(tmp_path, monkeypatch):
    bomb = _bomb(tmp_path, "collection.anki21b", 32 * MB)
    assert bomb.stat().st_size < 64 * KB
    monkeypatch.setattr(anki_limits, "CHUNK", 64 * KB)
    out: list[int] = []
    real = zstandard.ZstdDecompressor

    class Counting:
        """The real decompressor, counting every byte it hands out."""

        def __init__(self, **kwargs):
            self.inner = real(**kwargs)

        def stream_reader(self, source, **kwargs):
            reader = self.inner.stream_reader(source, **kwargs)

            class Reader:
                def read(self, n=-1):
                    data = reader.read(n)
                    out.append(len(data))
                    return data

            return Reader()

    monkeypatch.setattr(zstandard, "ZstdDecompressor", Counting)
    plan = plan_cards(bomb, Limits(max_entry_mb=1))
    assert sum(out) <= 1 * MB + 64 * KB
    assert plan.cards == []
    assert "collection.anki21b expands past the 1 MB limit for one entry (ratio " in plan.problems[0]
    assert plan.problems[0].endswith("nothing imported; if you trust this deck, import it again with --max-size 4")


def test_extracting_holds_one_chunk_in_memory_not_the_collection(tmp_path):
    """The old importer read the whole entry into memory (zf.read, then .read() of the zstd
    stream): a peak of at least the entry's size, here 24 MB."""
    bomb = _bomb(tmp_path, "collection.anki21b", 24 * MB)
    tracemalloc.start()
    try:
        plan = plan_cards(bomb, Limits(max_ratio=10**6))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * MB
    assert "damaged" in plan.problems[0]  # zeros are not a database: it got as far as SQLite


def test_an_entry_that_expands_too_many_times_stops_at_the_ratio(tmp_path, monkeypatch):
    monkeypatch.setattr(anki_limits, "RATIO_FLOOR", 2 * MB)
    bomb = _bomb(tmp_path, "collection.anki21", 8 * MB)
    plan = plan_cards(bomb)
    assert "collection.anki21 expands more than 200 times (" in plan.problems[0]
    assert "as archive bombs do; nothing imported; if you trust this deck, import it again with --max-ratio 2000" \
        in plan.problems[0]
    trusted = plan_cards(bomb, Limits(max_ratio=2000))
    assert "expands more than" not in trusted.problems[0] and "damaged" in trusted.problems[0]


def test_a_real_deck_over_a_lowered_limit_is_refused_and_imports_once_raised(tmp_path, collection):
    deck = make_apkg(tmp_path)
    size = zipfile.ZipFile(deck).getinfo("collection.anki2").file_size
    refused = plan_cards(deck, Limits(max_entry_mb=size / 2 / MB))
    assert refused.cards == [] and "limit for one entry" in refused.problems[0]
    assert len(plan_cards(deck, Limits(max_entry_mb=size * 2 / MB)).cards) == 5


def test_reading_stops_at_the_time_limit_with_a_clear_line(tmp_path):
    ticks = iter(range(0, 10_000, 7))
    plan = plan_cards(make_apkg(tmp_path), Limits(time_limit_s=20, clock=lambda: next(ticks)))
    assert plan.cards == [] and len(plan.problems) == 1
    assert "reading took longer than the 20 s limit (" in plan.problems[0]
    assert plan.problems[0].endswith("; nothing imported; if the deck is just very large, import it again "
                                     "with --time-limit 80")


def test_a_collection_that_never_ends_is_stopped_not_hung(tmp_path):
    """Notes and cards as views over endless recursive queries: without a deadline in the loop
    and an SQLite progress handler the import never returns."""
    db_path = tmp_path / "endless.sqlite"
    _legacy_db(db_path, [], [], [])
    db = sqlite3.connect(db_path)
    db.executescript("""
        DROP TABLE notes; DROP TABLE cards;
        CREATE VIEW notes AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)
            SELECT i AS id, 'g' || i AS guid, 10 AS mid, 0 AS mod, '' AS tags, 'q' || i || char(31) || 'a' AS flds
            FROM r;
        CREATE VIEW cards AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)
            SELECT i AS id, i AS nid, 1 AS did, 0 AS ord, 0 AS type, 0 AS queue, 0 AS due, 0 AS ivl, 0 AS factor,
                   0 AS reps, 0 AS lapses, '' AS data FROM r;
    """)
    db.close()
    apkg = tmp_path / "endless.apkg"
    with zipfile.ZipFile(apkg, "w") as zf:
        zf.write(db_path, "collection.anki2")
    start = time.monotonic()
    plan = plan_cards(apkg, Limits(time_limit_s=1))
    assert time.monotonic() - start < 15
    assert plan.cards == [] and "reading took longer than the 1 s limit" in plan.problems[0]


def test_cli_names_the_limit_and_the_flag_that_raises_it(tmp_path, capsys):
    bomb = _bomb(tmp_path, "collection.anki2", 4 * MB)
    assert main(["import", "anki", str(bomb), "--max-size", "1"]) == 2
    out = capsys.readouterr().out
    assert "collection.anki2 expands past the 1 MB limit for one entry" in out and "--max-size 4" in out
    assert main(["import", "anki", str(bomb), "--max-size", "8"]) == 2
    assert "expands past" not in capsys.readouterr().out  # past the limit now: zeros are no database
    assert main(["import", "anki", str(bomb), "--max-size", "0"]) == 2
    assert "--max-size must be a positive number" in capsys.readouterr().err
    deck = make_apkg(tmp_path, notes=NOTES, cards=CARDS, revlog=REVIEWS)
    assert main(["import", "anki", str(deck), "--time-limit", "120", "--max-ratio", "500"]) == 0
    assert "cards: 5 new" in capsys.readouterr().out
