"""A damaged, vanished or cut-short database is found at open and the history comes back.

The damage is done the way a bad sector or a sync tool does it: a page of garbage written
over a table leaf page or an index page of a real file, or the file cut to 0 bytes.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from studio.core import backups as bk
from studio.core import dbcheck
from studio.core.db import DatabaseCorrupt, DatabaseMissing, open_database
from studio.core.dbstate import DbState, state_path
from studio.core.models import Card, ReviewLog


def fill(path: Path, cards: int = 1500, reviews_per_card: int = 2) -> None:
    """A collection with enough rows for tables and indexes of many pages."""
    db = open_database(path)
    now = datetime(2026, 11, 1, 9, 0)
    with db.session() as s, s.begin():
        for i in range(cards):
            card = Card(key=f"user:{i:06d}", source="user", q_en=f"Question {i}: why is the sky blue?",
                        a_en="Rayleigh scattering " * 8, created_at=now, modified_at=now, due=now)
            s.add(card)
            for r in range(reviews_per_card):
                card.reviews.append(ReviewLog(rating=3, reviewed_at=now + timedelta(minutes=r),
                                              state_before="{}", state_after=2))
    db.close()


def page_size(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[16:18], "big")


def root_page(path: Path, name: str) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT rootpage FROM sqlite_master WHERE name=?", (name,)).fetchone()[0]
    finally:
        con.close()


def first_leaf(path: Path, table: str) -> int:
    """The leftmost leaf page under a table's root (the root of a big table is interior)."""
    size = page_size(path)
    data = path.read_bytes()
    page = root_page(path, table)
    while True:
        base = (page - 1) * size
        header = base + (100 if page == 1 else 0)
        if data[header] != 0x05:  # not an interior table page: a leaf
            return page
        first_cell = int.from_bytes(data[header + 12:header + 14], "big")
        page = int.from_bytes(data[base + first_cell:base + first_cell + 4], "big")


def damage(path: Path, page: int) -> None:
    size = page_size(path)
    with open(path, "r+b") as fh:
        fh.seek((page - 1) * size)
        fh.write(bytes((i * 37 + 11) % 251 for i in range(size)))


def next_day(path: Path) -> None:
    """As if the app were opened tomorrow: the daily check is due again."""
    state = DbState.load(path)
    state.last_check = (date.today() - timedelta(days=1)).isoformat()
    state.save(path)


def counts(path: Path) -> tuple[int, int]:
    c = dbcheck.count_rows(path)
    return c["cards"], c["reviews"]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    path = tmp_path_factory.mktemp("template") / "studio.sqlite3"
    fill(path)
    return path


@pytest.fixture
def db_path(tmp_path, template):
    path = tmp_path / "studio.sqlite3"
    path.write_bytes(template.read_bytes())
    DbState(exists=True).save(path)
    return path


def test_table_page_damage_is_found_at_next_days_open_and_not_backed_up(db_path, tmp_path):
    backups = tmp_path / "backups"
    good = bk.make_backup(db_path, backups)
    assert good.verified and (good.cards, good.reviews) == (1500, 3000)
    damage(db_path, first_leaf(db_path, "cards"))
    before = db_path.read_bytes()
    next_day(db_path)
    with pytest.raises(DatabaseCorrupt) as info:
        open_database(db_path, backups)
    assert "integrity check" in str(info.value)
    assert db_path.read_bytes() == before  # never written to
    with pytest.raises(bk.BackupFailed):
        bk.make_backup(db_path, backups)
    assert [b.id for b in bk.list_backups(backups)] == [good.id]  # the good copy stays, alone
    assert not list(backups.glob("*.partial"))


def test_index_page_damage_is_found_too(db_path, tmp_path):
    backups = tmp_path / "backups"
    good = bk.make_backup(db_path, backups)
    damage(db_path, root_page(db_path, "ix_review_log_day"))
    before = db_path.read_bytes()
    next_day(db_path)
    with pytest.raises(DatabaseCorrupt):
        open_database(db_path, backups)
    assert db_path.read_bytes() == before
    with pytest.raises(bk.BackupFailed):
        bk.make_backup(db_path, backups)
    assert [b.id for b in bk.list_backups(backups)] == [good.id]


def test_same_day_reopen_skips_the_check_but_a_crash_marker_forces_it(db_path):
    open_database(db_path).close()  # today's check passed
    damage(db_path, first_leaf(db_path, "review_log"))
    open_database(db_path, check=None).close()  # clean last session, checked today: no check
    Path(f"{db_path}.open-999999999").write_text("")  # a session that was killed
    with pytest.raises(DatabaseCorrupt):
        open_database(db_path)


def test_a_clean_close_leaves_no_marker_and_an_open_one_leaves_one(db_path):
    db = open_database(db_path)
    markers = list(db_path.parent.glob(db_path.name + ".open-*"))
    assert markers == [db_path.with_name(f"{db_path.name}.open-{os.getpid()}")]
    db.close()
    assert not list(db_path.parent.glob(db_path.name + ".open-*"))


def test_emptied_or_deleted_file_of_an_existing_collection_is_damaged_not_new(db_path, tmp_path):
    backups = tmp_path / "backups"
    bk.make_backup(db_path, backups)
    db_path.write_bytes(b"")
    with pytest.raises(DatabaseMissing, match="empty"):
        open_database(db_path, backups)
    assert db_path.stat().st_size == 0  # nothing was created in its place
    db_path.unlink()
    with pytest.raises(DatabaseMissing, match="missing"):
        open_database(db_path, backups)
    assert not db_path.exists()
    # The state file alone (no backups yet) is enough to know.
    state_path(db_path).write_text(json.dumps({"exists": True}))
    with pytest.raises(DatabaseMissing):
        open_database(db_path, tmp_path / "no-backups")


def test_a_file_cut_short_is_damaged(db_path):
    data = db_path.read_bytes()
    db_path.write_bytes(data[: len(data) // 2])
    with pytest.raises(DatabaseCorrupt, match="cut short"):
        open_database(db_path)


def test_restore_brings_back_the_backup_and_keeps_the_damaged_file(db_path, tmp_path):
    backups = tmp_path / "backups"
    good = bk.make_backup(db_path, backups)
    damage(db_path, first_leaf(db_path, "cards"))
    damaged_bytes = db_path.read_bytes()
    info, kept = bk.restore_backup(db_path, backups, "newest")
    assert info.id == good.id
    assert kept.read_bytes() == damaged_bytes
    assert counts(db_path) == (1500, 3000)
    assert dbcheck.run_check(db_path, full=True).ok
    open_database(db_path, backups).close()


def test_restore_refuses_a_damaged_backup_and_leaves_the_file(db_path, tmp_path):
    backups = tmp_path / "backups"
    made = bk.make_backup(db_path, backups)
    damage(made.path, first_leaf(made.path, "cards"))
    before = db_path.read_bytes()
    with pytest.raises(bk.RestoreFailed, match="integrity"):
        bk.restore_backup(db_path, backups, made.id)
    assert db_path.read_bytes() == before
    assert bk.list_backups(backups)[0].damaged


def test_salvage_copies_every_readable_row_and_reports_the_rest(db_path):
    damage(db_path, first_leaf(db_path, "cards"))
    report = bk.salvage_in_place(db_path)
    cards = next(t for t in report.tables if t.table == "cards")
    reviews = next(t for t in report.tables if t.table == "review_log")
    assert reviews.copied == 3000 and not reviews.unreadable
    assert 1000 < cards.copied < 1500
    assert cards.unreadable and cards.unreadable[0][0] == 1  # the first leaf's ids
    assert cards.copied + cards.lost_rows() >= 1500
    assert "cards: rows 1–" in report.text()
    assert report.kept_aside.exists()
    assert dbcheck.run_check(db_path, full=True).ok
    db = open_database(db_path)  # the salvaged file is a working collection
    with db.session() as s:
        assert s.get(Card, 1500).q_en.startswith("Question 1499")
    db.close()


def test_salvage_after_index_damage_loses_nothing(db_path):
    damage(db_path, root_page(db_path, "ix_review_log_day"))
    report = bk.salvage_in_place(db_path)
    assert not report.problems()
    assert counts(db_path) == (1500, 3000)
    assert dbcheck.run_check(db_path, full=True).ok


def test_salvaged_cards_are_searchable_again(db_path):
    damage(db_path, root_page(db_path, "ix_review_log_day"))
    bk.salvage_in_place(db_path)
    con = sqlite3.connect(db_path)
    hits = con.execute("SELECT count(*) FROM cards_fts WHERE cards_fts MATCH 'Rayleigh'").fetchone()[0]
    con.close()
    assert hits == 1500


def test_read_only_open_of_a_damaged_file_reads_and_never_writes(db_path):
    damage(db_path, root_page(db_path, "ix_review_log_day"))
    before = db_path.read_bytes()
    db = open_database(db_path, read_only=True, check=False)
    with db.session() as s:
        assert s.query(Card).count() == 1500
        s.add(Card(key="x", source="user", created_at=datetime.now(), modified_at=datetime.now(),
                   due=datetime.now()))
        with pytest.raises(Exception, match="readonly|read-only|query_only"):
            s.commit()
    db.close()
    assert db_path.read_bytes() == before


def _info(day: datetime, reason="daily", ok=True) -> bk.BackupInfo:
    return bk.BackupInfo(id=day.strftime("%Y%m%d-%H%M%S-000000") + f"-{reason}", path=Path("x"),
                         created=day, reason=reason, verified=ok, damaged=not ok, cards=10, reviews=20)


def test_generations_keep_7_days_4_weeks_6_months():
    start = datetime(2026, 1, 1, 10)
    listed = [_info(start + timedelta(days=d, hours=h)) for d in range(330) for h in (0, 5)]
    keep = bk.generations_to_keep(listed)
    kept = sorted((b for b in listed if b.id in keep), key=lambda b: b.created)
    days = {b.created.date() for b in kept}
    newest = max(b.created for b in listed)
    assert newest.strftime("%Y%m%d-%H%M%S-000000-daily") in keep
    assert len([b for b in kept if (newest - b.created).days < 7]) == 7  # one per day of the last 7
    assert len({(b.created.year, b.created.month) for b in kept}) == 6
    assert len(days) <= 7 + 4 + 6
    assert all(b.created.hour == 15 for b in kept)  # the newest of its day


def test_rotation_keeps_the_last_good_backup_when_newer_ones_are_damaged(tmp_path):
    path = tmp_path / "studio.sqlite3"
    fill(path, cards=50)
    backups = tmp_path / "backups"
    good = bk.make_backup(path, backups)
    # Copies made by an older version (no sidecar), all damaged, all newer than the good one.
    for i in range(12):
        stamp = (datetime.now() + timedelta(days=i + 1)).strftime("%Y%m%d-%H%M%S-%f")
        bad = backups / f"studio-{stamp}-daily.sqlite3"
        bad.write_bytes(path.read_bytes())
        damage(bad, first_leaf(bad, "cards"))
    bk.rotate(backups)
    listed = bk.list_backups(backups)
    assert good.id in [b.id for b in listed]
    assert all(b.damaged for b in listed if b.id != good.id)
    assert bk.newest_good(backups).id == good.id
    assert bk.find_backup(backups, "newest").id == good.id


def test_daily_backup_is_made_once_and_not_over_a_failed_copy(db_path, tmp_path):
    backups = tmp_path / "backups"
    assert bk.backup_if_first_today(db_path, backups) is not None
    assert bk.backup_if_first_today(db_path, backups) is None
    assert len(bk.list_backups(backups)) == 1


def test_backups_from_older_versions_are_checked_once_and_listed(db_path, tmp_path):
    backups = tmp_path / "backups"
    backups.mkdir()
    legacy = backups / "studio-20261101-080000-000001-daily.sqlite3"
    src, dst = sqlite3.connect(db_path), sqlite3.connect(legacy)
    src.backup(dst)
    src.close(), dst.close()
    [info] = bk.list_backups(backups)
    assert info.verified and (info.cards, info.reviews) == (1500, 3000)
    assert json.loads(Path(str(legacy) + ".json").read_text())["verified"] is True


def test_a_backup_made_by_hand_does_not_push_out_the_days_automatic_one(db_path, tmp_path):
    backups = tmp_path / "backups"
    daily = bk.make_backup(db_path, backups, reason="daily")
    manual = bk.make_backup(db_path, backups, reason="manual")
    again = bk.make_backup(db_path, backups, reason="daily")
    ids = {b.id for b in bk.list_backups(backups)}
    assert {manual.id, again.id} <= ids and daily.id not in ids  # newest automatic one of the day


def test_backups_are_single_files_and_leave_nothing_beside_them(db_path, tmp_path):
    """A WAL-mode database copied and checked read-only left -wal/-shm files per backup
    (and per failed copy) that nothing ever removed."""
    backups = tmp_path / "backups"
    backups.mkdir()
    legacy = backups / "studio-20261101-080000-000001-daily.sqlite3"  # WAL mode, as earlier versions made them
    src, dst = sqlite3.connect(db_path), sqlite3.connect(legacy)
    src.backup(dst)
    src.close(), dst.close()
    (backups / "studio-20261101-070000-000001-daily.sqlite3.partial-shm").write_bytes(b"\0" * 32768)  # orphan
    good = bk.make_backup(db_path, backups)
    con = sqlite3.connect(f"{good.path.as_uri()}?mode=ro", uri=True)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()
    bk.restore_backup(tmp_path / "restored.sqlite3", backups, legacy.name[len("studio-"):-len(".sqlite3")])
    damage(db_path, first_leaf(db_path, "cards"))
    with pytest.raises(bk.BackupFailed):
        bk.make_backup(db_path, backups)
    assert sorted(p.name for p in backups.iterdir()) == sorted(
        [legacy.name, legacy.name + ".json", good.path.name, good.path.name + ".json"])


def test_an_emptied_or_vanished_file_is_never_backed_up(db_path, tmp_path):
    """An empty file passes SQLite's check; backing it up made `restore newest` bring back nothing."""
    backups = tmp_path / "backups"
    good = bk.make_backup(db_path, backups, reason="manual")
    db_path.write_bytes(b"")
    with pytest.raises(bk.BackupFailed, match="empty"):
        bk.make_backup(db_path, backups, reason="manual")
    db_path.unlink()
    with pytest.raises(bk.BackupFailed, match="no database"):
        bk.make_backup(db_path, backups, reason="manual")
    con = sqlite3.connect(db_path)  # some other program's SQLite file in its place
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(bk.BackupFailed, match="no collection"):
        bk.make_backup(db_path, backups)
    assert [b.id for b in bk.list_backups(backups)] == [good.id]
    assert sorted(p.name for p in backups.iterdir()) == sorted([good.path.name, good.path.name + ".json"])
    info, _kept = bk.restore_backup(db_path, backups, "newest")
    assert info.id == good.id and counts(db_path) == (1500, 3000)


def test_a_verified_copy_holding_no_collection_is_not_a_good_backup(db_path, tmp_path):
    """Such copies were made from 0-byte files before make_backup refused them."""
    backups = tmp_path / "backups"
    good = bk.make_backup(db_path, backups, reason="manual")
    stamp = (datetime.now() + timedelta(minutes=1)).strftime("%Y%m%d-%H%M%S-%f")
    empty = backups / f"studio-{stamp}-manual.sqlite3"
    empty.write_bytes(b"")
    Path(str(empty) + ".json").write_text(json.dumps(
        {"verified": True, "damaged": False, "cards": -1, "reviews": -1, "reason": "manual"}))
    [listed_empty, _] = bk.list_backups(backups)
    assert listed_empty.verified and not listed_empty.good
    assert bk.newest_good(backups).id == good.id and bk.find_backup(backups, "newest").id == good.id
    bk.rotate(backups)
    assert [b.id for b in bk.list_backups(backups)] == [good.id]


def test_a_file_shorter_than_its_header_while_its_log_holds_frames_is_not_called_cut_short(db_path, tmp_path):
    """A checkpoint writes page 1 before the pages that extend the file: a live database (the
    app's checkpoint thread, or SQLite's after a crash) is briefly shorter than its header says.
    With frames in the log that is not damage (a backup raced the checkpoint thread and was
    refused as "cut short" in a test run); without a log it still is."""
    from studio.core import dbcheck

    data = db_path.read_bytes()
    short = tmp_path / "short.sqlite3"
    short.write_bytes(data[: len(data) - 4096])
    assert "cut short" in (dbcheck.header_problem(short) or "")
    wal = tmp_path / "short.sqlite3-wal"
    wal.write_bytes(b"\x37\x7f\x06\x82" + bytes(4096 + 56))     # a log with a frame's worth of bytes
    assert dbcheck.header_problem(short) is None
    wal.write_bytes(b"")                                          # an empty log holds nothing
    assert "cut short" in (dbcheck.header_problem(short) or "")
