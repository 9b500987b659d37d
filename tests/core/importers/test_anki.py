"""Importing Anki packages: legacy and zstd schemas, history replayed to FSRS, bad packages, fuzzing."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from datetime import datetime, timezone

import pytest
from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from studio.core.importers.anki import apply_cards, html_to_text, plan_cards, _proto_fields
from studio.core.models import Card, ReviewLog

CRT = int(datetime(2024, 1, 1, tzinfo=timezone.utc).timestamp())
T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)
DAY_MS = 86_400_000


def _legacy_db(path, notes, cards, revlog, models=None):
    """A schema-11 Anki collection with the tables and columns the importer reads."""
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE col (id integer primary key, crt int, mod int, scm int, ver int, dty int, usn int, ls int,
                          conf text, models text, decks text, dconf text, tags text);
        CREATE TABLE notes (id integer primary key, guid text, mid int, mod int, usn int, tags text, flds text,
                            sfld text, csum int, flags int, data text);
        CREATE TABLE cards (id integer primary key, nid int, did int, ord int, mod int, usn int, type int, queue int,
                            due int, ivl int, factor int, reps int, lapses int, left int, odue int, odid int,
                            flags int, data text);
        CREATE TABLE revlog (id integer primary key, cid int, usn int, ease int, ivl int, lastIvl int, factor int,
                             time int, type int);
    """)
    models = models or {
        "10": {"name": "Basic (and reversed card)", "type": 0,
               "flds": [{"name": "Front", "ord": 0}, {"name": "Back", "ord": 1}],
               "tmpls": [{"ord": 0, "qfmt": "{{Front}}", "afmt": "{{FrontSide}}<hr id=answer>{{Back}}"},
                         {"ord": 1, "qfmt": "{{Back}}", "afmt": "{{FrontSide}}<hr id=answer>{{Front}}"}]},
        "20": {"name": "Cloze", "type": 1, "flds": [{"name": "Text", "ord": 0}, {"name": "Extra", "ord": 1}],
               "tmpls": [{"ord": 0, "qfmt": "{{cloze:Text}}", "afmt": "{{cloze:Text}}<br>{{Extra}}"}]},
    }
    decks = {"1": {"name": "Default"}, "5": {"name": "GPU::CUDA"}}
    db.execute("INSERT INTO col VALUES (1,?,0,0,11,0,0,0,'{}',?,?,'{}','{}')", (CRT, json.dumps(models), json.dumps(decks)))
    for nid, guid, mid, tags, flds, *mod in notes:  # an optional sixth value: the note's mod time
        db.execute("INSERT INTO notes VALUES (?,?,?,?,0,?,?,'',0,0,'')",
                   (nid, guid, mid, mod[0] if mod else 0, tags, "\x1f".join(flds)))
    for row in cards:
        db.execute("INSERT INTO cards VALUES (?,?,?,?,0,0,?,?,?,?,?,?,?,0,0,0,0,?)", row)
    for row in revlog:
        db.execute("INSERT INTO revlog VALUES (?,?,0,?,0,0,0,?,?)", row)
    db.commit()
    db.close()


NOTES = [
    (1, "gA1", 10, " cuda gpu ", ["What is a <b>warp</b>?", "32 threads<br>run together &amp; in lockstep"]),
    (2, "gB2", 20, "", ["A warp has {{c1::32}} threads and an SM has {{c2::4}} schedulers", ""]),
    (3, "gC3", 10, "", ["为什么用 <i>shared memory</i>？", "<pre>__shared__ float tile[32][33];<br>// pad</pre>"]),
]
T0_MS = int(T0.timestamp() * 1000)
REVIEWS = [(T0_MS, 11, 3, 8000, 0), (T0_MS + 3 * DAY_MS, 11, 3, 5000, 1), (T0_MS + 10 * DAY_MS, 11, 1, 9000, 1),
           (T0_MS + 10 * DAY_MS + 600_000, 11, 3, 4000, 2), (T0_MS + 10 * DAY_MS + 700_000, 11, 0, 0, 4)]
CARDS = [
    (11, 1, 5, 0, 2, 2, 80, 5, 2300, 4, 1, ""),
    (12, 1, 5, 1, 0, 0, 2, 0, 0, 0, 0, ""),
    (21, 2, 1, 0, 0, 0, 3, 0, 0, 0, 0, ""),
    (22, 2, 1, 1, 0, 0, 4, 0, 0, 0, 0, ""),
    (31, 3, 1, 0, 2, 2, 70, 20, 2500, 3, 0, json.dumps({"s": 25.5, "d": 4.2})),
]


def make_apkg(tmp_path, name="deck.apkg", member="collection.anki2", notes=NOTES, cards=CARDS, revlog=REVIEWS,
              models=None):
    db_path = tmp_path / f"{name}.sqlite"
    _legacy_db(db_path, notes, cards, revlog, models)
    apkg = tmp_path / name
    data = db_path.read_bytes()
    if member == "collection.anki21b":
        import zstandard

        data = zstandard.ZstdCompressor().compress(data)
    with zipfile.ZipFile(apkg, "w") as zf:
        zf.writestr(member, data)
        zf.writestr("media", "{}")
    return apkg


def test_html_fields_become_markdownish_text():
    assert html_to_text("a<br>b &lt;c&gt; <b>bold</b>") == "a\nb <c> bold"
    assert html_to_text("<div>x</div><div>y</div>") == "x\ny"
    assert html_to_text("<pre>int a;<br>  int b;</pre>") == "```\nint a;\n  int b;\n```"
    assert html_to_text('see <img src="fig.png"> here') == "see [image: fig.png] here"


def test_plan_reads_notes_templates_cloze_and_keys(tmp_path):
    plan = plan_cards(make_apkg(tmp_path))
    assert plan.problems == []
    by_key = {c.key: c for c in plan.cards}
    assert set(by_key) == {"anki:gA1", "anki:gA1#1", "anki:gB2#c1", "anki:gB2#c2", "anki:gC3"}
    assert by_key["anki:gA1"].q_en == "What is a warp?"
    assert by_key["anki:gA1"].a_en == "32 threads\nrun together & in lockstep"
    assert by_key["anki:gA1#1"].q_en.startswith("32 threads")  # the reversed template
    assert by_key["anki:gA1"].tags == "cuda gpu" and by_key["anki:gA1"].deck == "GPU::CUDA"
    assert by_key["anki:gB2#c2"].kind == "cloze" and by_key["anki:gB2#c2"].cloze_ord == 2
    assert by_key["anki:gC3"].q_zh == "为什么用 shared memory？" and "```" in by_key["anki:gC3"].a_zh
    assert [r.rating for r in by_key["anki:gA1"].reviews] == [3, 3, 1, 3]  # the manual entry is dropped


def test_history_keep_replays_the_revlog_through_fsrs(collection, tmp_path):
    summary = apply_cards(collection, plan_cards(make_apkg(tmp_path)), history="keep")
    assert (summary.cards, summary.cards_updated) == (5, 0)
    scheduler = Scheduler(enable_fuzzing=False)
    expected = FsrsCard()
    for ms, _cid, ease, _t, _type in REVIEWS[:4]:
        expected, _ = scheduler.review_card(expected, Rating(ease), datetime.fromtimestamp(ms / 1000, timezone.utc))
    with collection.db.session() as s:
        card = s.scalars(select(Card).where(Card.key == "anki:gA1")).one()
        assert card.stability == pytest.approx(expected.stability)
        assert card.difficulty == pytest.approx(expected.difficulty)
        assert card.due == expected.due.replace(tzinfo=None)
        assert (card.reps, card.lapses) == (4, 1)
        assert s.scalar(select(func.count(ReviewLog.id)).where(ReviewLog.card_id == card.id)) == 4
        no_revlog = s.scalars(select(Card).where(Card.key == "anki:gC3")).one()
        assert (no_revlog.stability, no_revlog.difficulty) == (25.5, 4.2)  # Anki's own FSRS memory
        assert no_revlog.due == datetime(2024, 3, 11)  # crt + 70 days
        assert s.scalars(select(Card).where(Card.key == "anki:gB2#c1")).one().last_review is None


def test_history_new_imports_every_card_unreviewed(collection, tmp_path):
    apply_cards(collection, plan_cards(make_apkg(tmp_path)), history="new")
    with collection.db.session() as s:
        assert s.scalar(select(func.count(Card.id)).where(Card.last_review.is_not(None))) == 0
        assert s.scalar(select(func.count(ReviewLog.id))) == 0


def test_reimport_is_idempotent_and_keeps_scheduling(collection, tmp_path):
    apkg = make_apkg(tmp_path)
    apply_cards(collection, plan_cards(apkg))
    with collection.db.session() as s:
        before = s.scalars(select(Card).where(Card.key == "anki:gA1")).one()
    notes = [NOTES[0][:4] + (["What is a warp (SIMT)?", NOTES[0][4][1]],)] + NOTES[1:]
    changed = make_apkg(tmp_path, "v2.apkg", notes=notes)
    summary = apply_cards(collection, plan_cards(changed), history="keep")
    assert (summary.cards, summary.cards_updated) == (0, 2)  # the card and its reverse
    with collection.db.session() as s:
        assert s.scalar(select(func.count(Card.id)).where(Card.key.like("anki:%"))) == 5
        assert s.scalar(select(func.count(ReviewLog.id))) == 4
        after = s.scalars(select(Card).where(Card.key == "anki:gA1")).one()
    assert after.q_en == "What is a warp (SIMT)?" and (after.due, after.reps) == (before.due, before.reps)


def test_zstd_anki21b_with_the_newer_notetype_tables(collection, tmp_path):
    db_path = tmp_path / "new.sqlite"
    _legacy_db(db_path, NOTES[:1], CARDS[:2], REVIEWS[:2], models={})
    db = sqlite3.connect(db_path)
    db.executescript("""
        CREATE TABLE notetypes (id integer primary key, name text, mtime_secs int, usn int, config blob);
        CREATE TABLE fields (ntid int, ord int, name text, config blob);
        CREATE TABLE templates (ntid int, ord int, name text, mtime_secs int, usn int, config blob);
        CREATE TABLE decks (id integer primary key, name text);
    """)
    db.execute("INSERT INTO notetypes VALUES (10, 'Basic (and reversed card)', 0, 0, ?)", (b"\x08\x00",))
    db.execute("INSERT INTO fields VALUES (10,0,'Front',x''), (10,1,'Back',x'')")
    for ord_, (q, a) in enumerate([("{{Front}}", "{{Back}}"), ("{{Back}}", "{{Front}}")]):
        config = b"\x0a" + bytes([len(q)]) + q.encode() + b"\x12" + bytes([len(a)]) + a.encode()
        db.execute("INSERT INTO templates VALUES (10,?,?,0,0,?)", (ord_, f"Card {ord_ + 1}", config))
    db.execute("INSERT INTO decks VALUES (5, 'GPU\x1fCUDA')")
    db.commit()
    db.close()
    import zstandard

    apkg = tmp_path / "new.apkg"
    with zipfile.ZipFile(apkg, "w") as zf:
        zf.writestr("collection.anki2", b"stub: please update Anki")
        zf.writestr("collection.anki21b", zstandard.ZstdCompressor().compress(db_path.read_bytes()))
    plan = plan_cards(apkg)
    assert plan.problems == []
    assert {(c.key, c.q_en) for c in plan.cards} == {
        ("anki:gA1", "What is a warp?"), ("anki:gA1#1", "32 threads\nrun together & in lockstep")}
    assert plan.cards[0].deck == "GPU::CUDA"
    assert apply_cards(collection, plan).cards == 2
    assert _proto_fields(b"\x08\x01\x12\x02hi") == {1: [1], 2: [b"hi"]}


@pytest.mark.parametrize("damage", ["truncated", "not-zip", "no-collection", "bad-sqlite", "bad-zstd"])
def test_damaged_packages_give_a_clear_line_and_change_nothing(collection, tmp_path, damage):
    apply_cards(collection, plan_cards(make_apkg(tmp_path, "good.apkg")))
    good = make_apkg(tmp_path, "src.apkg").read_bytes()
    bad = tmp_path / "bad.apkg"
    if damage == "truncated":
        bad.write_bytes(good[: len(good) // 2])
    elif damage == "not-zip":
        bad.write_bytes(b"\x89PNG\r\n" + b"\x00" * 300)
    else:
        with zipfile.ZipFile(bad, "w") as zf:
            if damage == "no-collection":
                zf.writestr("media", "{}")
            elif damage == "bad-sqlite":
                zf.writestr("collection.anki2", b"SQLite format 3\x00" + b"\xff" * 2000)
            else:
                zf.writestr("collection.anki21b", b"\x28\xb5\x2f\xfd garbage")
    plan = plan_cards(bad)
    summary = apply_cards(collection, plan)
    assert summary.cards == 0 and plan.cards == []
    assert len(summary.problems) == 1 and str(bad) in summary.problems[0] and "nothing imported" in summary.problems[0]
    assert collection.counts()["cards"] == 5


def test_missing_file_is_reported(tmp_path):
    assert "no such file" in plan_cards(tmp_path / "gone.apkg").problems[0]


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=3000))
def test_random_bytes_as_a_package_never_crash(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "x.apkg"
    path.write_bytes(data)
    plan = plan_cards(path)
    assert plan.problems


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(list("<>/=\"'&;#abpredivbr \n") + ["<br>", "<pre>", "</pre>", "&amp;", "<img src="]),
               max_size=200).map("".join))
def test_html_stripping_never_crashes(value):
    assert isinstance(html_to_text(value), str)
