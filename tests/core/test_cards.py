"""User cards and the browser's search language."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from fsrs import Rating, Scheduler

from studio.core.cards import (
    CardDraft,
    SearchSyntaxError,
    browse,
    create_card,
    delete_cards,
    retag,
    set_suspended,
    update_card,
)
from studio.core.review import ReviewQueue, to_fsrs

T0 = datetime(2025, 3, 10, 12, 0, 0)


@pytest.fixture
def cards(collection):
    ids = {}
    ids["softmax"] = create_card(collection, CardDraft(
        q_en="Why does a fused softmax subtract the row max?", a_en="Overflow of exp.",
        q_zh="融合 softmax 为什么要减去行最大值？", a_zh="防止 exp 溢出。",
        node_id="kernels.triton.softmax", tags=["triton", "numerics"]))[0]
    ids["nccl"] = create_card(collection, CardDraft(
        q_en="What does NCCL all-reduce cost?", a_en="2(n-1)/n of the data per rank.",
        node_id="distributed.collectives", tags=["nccl"]))[0]
    ids["tp"] = create_card(collection, CardDraft(
        q_en="Tensor parallel splits which matmul dimension?", a_en="Columns then rows.",
        node_id="distributed.tp", tags=["parallelism", "flash_attention"]))[0]
    return ids


def keys(rows):
    return {r.id for r in rows}


def test_cloze_card_makes_one_card_per_deletion(collection):
    ids = create_card(collection, CardDraft(q_en="{{c1::HBM}} is slower than {{c2::SRAM}}", kind="cloze"))
    assert len(ids) == 2
    from studio.core.review import ReviewQueue
    first = ReviewQueue(collection).get(ids[0])
    assert first.kind == "cloze" and first.cloze_ord == 1


def test_cloze_render_hides_only_its_ordinal():
    from studio.core.decks import render_cloze

    text = "{{c1::HBM}} is slower than {{c2::SRAM::on-chip}}"
    assert render_cloze(text, 2, False) == "HBM is slower than **[on-chip]**"
    assert render_cloze(text, 2, True) == "HBM is slower than **[SRAM]**"


def test_card_validation(collection):
    with pytest.raises(ValueError):
        create_card(collection, CardDraft(q_en="", a_en="x"))
    with pytest.raises(ValueError):
        create_card(collection, CardDraft(q_en="Q?", a_en=""))
    with pytest.raises(ValueError):
        create_card(collection, CardDraft(q_en="no deletion", kind="cloze"))


def test_free_text_in_both_languages(collection, cards):
    assert keys(browse(collection, "softmax")) == {cards["softmax"]}
    assert keys(browse(collection, "最大值")) == {cards["softmax"]}
    assert keys(browse(collection, '"all-reduce cost"')) == {cards["nccl"]}
    assert keys(browse(collection, "行")) == {cards["softmax"]}, "under 3 characters falls back to LIKE"


def test_tag_node_and_negation(collection, cards):
    assert keys(browse(collection, "tag:triton")) == {cards["softmax"]}
    assert keys(browse(collection, "tag:flash_attention")) == {cards["tp"]}
    assert keys(browse(collection, "tag:flashxattention")) == set(), "underscore is not a wildcard"
    assert keys(browse(collection, "node:distributed")) == {cards["nccl"], cards["tp"]}
    assert keys(browse(collection, "node:distributed.tp")) == {cards["tp"]}
    assert keys(browse(collection, "node:distributed -tag:nccl")) == {cards["tp"]}


def test_is_new_due_suspended(collection, cards):
    ReviewQueue(collection).answer(cards["nccl"], Rating.Good, now=datetime.now(timezone.utc).replace(tzinfo=None))
    set_suspended(collection, [cards["tp"]], True)
    assert keys(browse(collection, "is:new")) == {cards["softmax"], cards["tp"]}
    assert keys(browse(collection, "is:due")) == {cards["nccl"]}
    assert keys(browse(collection, "is:suspended")) == {cards["tp"]}
    with pytest.raises(SearchSyntaxError):
        browse(collection, "is:sleepy")
    with pytest.raises(SearchSyntaxError):
        browse(collection, "prop:r<<1")
    with pytest.raises(SearchSyntaxError):
        browse(collection, '"unbalanced')


def test_prop_retrievability_matches_fsrs(collection, cards):
    queue = ReviewQueue(collection)
    queue.answer(cards["softmax"], Rating.Good, now=T0 - timedelta(days=40))
    queue.answer(cards["softmax"], Rating.Good, now=T0 - timedelta(days=39, hours=23))
    queue.answer(cards["nccl"], Rating.Easy, now=T0 - timedelta(days=1))
    rows = {r.id: r for r in browse(collection, "", now=T0)}
    scheduler = Scheduler()
    for cid in (cards["softmax"], cards["nccl"]):
        expected = scheduler.get_card_retrievability(to_fsrs(queue.get(cid)), T0.replace(tzinfo=timezone.utc))
        assert rows[cid].retrievability == pytest.approx(expected)
    assert 0 < rows[cards["softmax"]].retrievability < 0.8 < rows[cards["nccl"]].retrievability <= 1
    assert rows[cards["tp"]].retrievability is None
    assert keys(browse(collection, "prop:r<0.8", now=T0)) == {cards["softmax"]}
    assert keys(browse(collection, "prop:reps>=2", now=T0)) == {cards["softmax"]}


def test_sorting(collection, cards):
    by_question = [r.question for r in browse(collection, "", order="question")]
    assert by_question == sorted(by_question)
    desc = [r.question for r in browse(collection, "", order="question", descending=True)]
    assert desc == by_question[::-1]
    with pytest.raises(SearchSyntaxError):
        browse(collection, "", order="nonsense")


def test_bulk_retag_suspend_delete(collection, cards):
    retag(collection, [cards["softmax"], cards["nccl"]], add=["Interview"], remove=["triton"])
    assert keys(browse(collection, "tag:interview")) == {cards["softmax"], cards["nccl"]}
    assert keys(browse(collection, "tag:triton")) == set()
    set_suspended(collection, list(cards.values()), True)
    assert len(browse(collection, "is:suspended")) == 3
    assert delete_cards(collection, [cards["tp"]]) == 1
    assert cards["tp"] not in keys(browse(collection, ""))


def test_update_keeps_scheduling(collection, cards):
    queue = ReviewQueue(collection)
    queue.answer(cards["nccl"], Rating.Good, now=T0)
    stability = queue.get(cards["nccl"]).stability
    update_card(collection, cards["nccl"], CardDraft(q_en="Ring all-reduce bytes?", a_en="2(n-1)/n",
                                                     node_id="distributed.collectives", tags=["nccl", "ring"]))
    card = queue.get(cards["nccl"])
    assert card.q_en == "Ring all-reduce bytes?" and card.tags == "nccl ring" and card.stability == stability
    assert keys(browse(collection, "ring")) == {cards["nccl"]}, "FTS follows edits"


def _reference_ids(col, query, order="due", descending=False, now=None):
    """The browser's answer the plain way: one SQL statement with the FTS subqueries inside."""
    from sqlalchemy import text

    from studio.core.cards import _ORDER_SQL, _IVL_SQL, compile_query, retrievability_sql

    now = now or T0
    where, params = compile_query(query, now, col.end_of_today(now.replace(tzinfo=timezone.utc)))
    sql = (f"SELECT c.id, {_IVL_SQL} AS ivl, {retrievability_sql()} AS r FROM cards c WHERE {where} "
           f"ORDER BY {_ORDER_SQL[order]} {'DESC' if descending else 'ASC'} NULLS LAST, c.id")
    with col.db.engine.connect() as conn:
        return [row[0] for row in conn.execute(text(sql), params)]


@pytest.mark.parametrize("few", [0, 2, 2000])
def test_free_text_paths_agree_with_one_sql_statement(collection, monkeypatch, few):
    """Free-text words are looked up in the trigram index apart and the display order filtered
    by them (a few matches: SQLite sorts them; many: the kept order of all cards is filtered):
    every path gives what one SQL statement gives, retired cards left out, negation included."""
    from studio.core import cards as cards_mod
    from studio.core.cards import search_ids

    monkeypatch.setattr(cards_mod, "_FEW_MATCHES", few)
    for n in range(40):
        create_card(collection, CardDraft(
            q_en=f"Card {n}: " + ("softmax rows " if n % 3 else "layernorm ") + ("online" if n % 4 else ""),
            a_en="max then exp" if n % 5 else "mean and variance", q_zh="融合 softmax" if n % 7 == 0 else "",
            tags=["triton"] if n % 2 else ["cuda"]))
    with collection.db.session() as s, s.begin():
        s.execute(__import__("sqlalchemy").text("UPDATE cards SET retired = 1 WHERE q_en LIKE 'Card 3:%'"))
        s.execute(__import__("sqlalchemy").text("UPDATE cards SET due = datetime('2025-03-01', '+' || (id % 9) || ' days')"))
    for query in ("softmax", "softmax online", "-softmax", "softmax -online", "max -variance", "融合",
                  "softmax tag:triton", "-tag:cuda softmax", '"softmax rows"', "nothing-like-this", "exp is:new"):
        for order, desc in (("due", False), ("question", True), ("retrievability", False), ("interval", True)):
            assert search_ids(collection, query, order, desc, now=T0) == _reference_ids(collection, query, order, desc), \
                (query, order, desc, few)


def test_kept_display_order_follows_every_commit(collection, monkeypatch):
    """The order of all cards is kept between searches and recomputed after any commit, also
    one made by another connection (another process), so a search never shows a stale order."""
    import sqlite3

    from studio.core import cards as cards_mod
    from studio.core.cards import search_ids

    monkeypatch.setattr(cards_mod, "_FEW_MATCHES", 0)
    ids = [create_card(collection, CardDraft(q_en=f"softmax {n}", a_en="a"))[0] for n in range(5)]
    first = search_ids(collection, "softmax", now=T0)
    kept = collection.db.kept()
    computed = kept.computed
    assert search_ids(collection, "softmax", now=T0) == first and kept.computed == computed   # kept
    # this process: the last card becomes due first
    with collection.db.session() as s, s.begin():
        s.execute(__import__("sqlalchemy").text("UPDATE cards SET due = '2000-01-01 00:00:00.000000' WHERE id = :i"),
                  {"i": ids[-1]})
    # (the order of all live cards is brought up to date from the change log, not read again)
    assert search_ids(collection, "softmax", now=T0)[0] == ids[-1]
    assert (kept.computed, kept.patched) == (computed, 1)
    # another process's connection: its change is logged by the same triggers
    other = sqlite3.connect(collection.db.path)
    other.execute("UPDATE cards SET due = '1999-01-01 00:00:00.000000' WHERE id = ?", (ids[1],))
    other.commit()
    other.close()
    assert search_ids(collection, "softmax", now=T0)[:2] == [ids[1], ids[-1]]
    assert search_ids(collection, "softmax", now=T0) == _reference_ids(collection, "softmax")
    assert (kept.computed, kept.patched) == (computed, 2)
    # a search with another term after a commit does not push the patchable order out
    with collection.db.session() as s, s.begin():
        s.execute(__import__("sqlalchemy").text("UPDATE cards SET due = '1998-01-01 00:00:00.000000' WHERE id = :i"),
                  {"i": ids[2]})
    assert search_ids(collection, "softmax tag:none", now=T0) == []
    assert search_ids(collection, "softmax", now=T0)[0] == ids[2]
    assert (kept.computed, kept.patched) == (computed + 1, 3)      # the tag search's order, then a patch


def test_closing_the_collection_closes_the_readers_connection(studio_home):
    """The reader that keeps the order is closed with the collection, before the engine: the
    last close still checkpoints and removes the write-ahead log."""
    from studio.core.cards import search_ids
    from studio.core.collection import Collection

    col = Collection.open()
    for n in range(3):
        create_card(col, CardDraft(q_en=f"softmax {n}", a_en="a"))
    import studio.core.cards as cards_mod
    old, cards_mod._FEW_MATCHES = cards_mod._FEW_MATCHES, 0
    try:
        assert len(search_ids(col, "softmax")) == 3
    finally:
        cards_mod._FEW_MATCHES = old
    assert col.db.until_commit is not None and col.db.until_commit._conn is not None
    path = col.db.path
    col.close()
    assert col.db.until_commit is None
    assert not path.with_name(path.name + "-wal").exists()


def test_due_order_read_as_one_string_is_checked_against_sqlite(collection):
    """The due order is read as two `group_concat` strings and accepted only when the ids
    come strictly ordered by (due, id): ascending and descending, ties broken by id, any search's clauses; a due that is not a stored 26-character date, or
    rows fed in another order, fall back to fetching rows. Every answer equals one SQL statement."""
    import sqlite3

    import numpy as np
    import sqlalchemy

    from studio.core import cards as cards_mod
    from studio.core.cards import due_order_holds, search_ids

    for n in range(30):
        create_card(collection, CardDraft(q_en=f"softmax {n}", a_en="a", tags=["triton"] if n % 2 else ["cuda"]))
    with collection.db.session() as s, s.begin():   # ties: four distinct dues
        s.execute(sqlalchemy.text("UPDATE cards SET due = "
                                  "strftime('%Y-%m-%d %H:%M:%f000', '2025-03-01', '+' || (id % 4) || ' days')"))
    queries = ("", "tag:triton", "softmax", "-tag:cuda softmax")

    def all_agree():
        for query in queries:
            for desc in (False, True):
                assert search_ids(collection, query, "due", desc, now=T0) == \
                    _reference_ids(collection, query, "due", desc), (query, desc)

    with collection.db.engine.connect() as conn:
        db = conn.connection.driver_connection
        for desc in (False, True):
            ids = cards_mod._due_order(db, ["c.retired = 0"], {}, desc)
            assert ids is not None and ids.tolist() == _reference_ids(collection, "", "due", desc)

            class Reversed:                      # SQLite feeding the aggregate in another order
                def execute(self, sql, params):
                    a, b = db.execute(sql, params).fetchone()
                    return type("Row", (), {"fetchone": lambda self: (
                        ",".join(a.split(",")[::-1]), ",".join(b.split(",")[::-1]))})()

            assert cards_mod._due_order(Reversed(), ["c.retired = 0"], {}, desc) is None
    all_agree()
    # the unit check itself: a swapped pair and a tie out of id order are both refused
    keys = np.array([b"2025-03-01", b"2025-03-02", b"2025-03-02"])
    assert due_order_holds(np.array([1, 2, 3]), keys, False)
    assert not due_order_holds(np.array([1, 3, 2]), keys, False)
    assert not due_order_holds(np.array([2, 1, 3]), keys[::-1].copy(), False)
    assert due_order_holds(np.array([2, 3, 1]), keys[::-1].copy(), True)
    # a due written by hand as a bare date: not 26 characters, so rows are fetched instead
    raw = sqlite3.connect(collection.db.path)
    raw.execute("UPDATE cards SET due = '2024-12-31' WHERE id = (SELECT max(id) FROM cards)")
    raw.commit()
    raw.close()
    with collection.db.engine.connect() as conn:
        assert cards_mod._due_order(conn.connection.driver_connection, ["c.retired = 0"], {}, False) is None
    all_agree()


def test_kept_order_follows_the_change_log_through_every_kind_of_write(collection, monkeypatch):
    """After each write (answers, edits of due by hand, retiring, deleting, new cards, ties,
    a write by another connection, a commit that moves no card) the browser's kept order is
    moved card by card from the change log and equals one SQL statement; a log that no longer
    holds the entry the order was read at (cut, or another file's), or too many changes, and
    the order is read again."""
    import random
    import sqlite3

    import sqlalchemy

    from studio.core import cards as cards_mod
    from studio.core.cards import search_ids
    from studio.core.review import ReviewQueue

    monkeypatch.setattr(cards_mod, "_FEW_MATCHES", 0)
    rng = random.Random(5)
    ids = [create_card(collection, CardDraft(q_en=f"softmax {n}", a_en="a"))[0] for n in range(40)]
    with collection.db.engine.connect() as conn:     # inserts keep their own rowid (the triggers insert too)
        assert conn.exec_driver_sql("SELECT max(id) FROM cards").scalar() == ids[-1]
    kept = collection.db.kept()

    def check(label):
        assert search_ids(collection, "softmax", now=T0) == _reference_ids(collection, "softmax"), label

    check("first read")
    queue = ReviewQueue(collection)
    start = (kept.computed, kept.patched)
    for step in range(30):
        what = step % 6
        with collection.db.session() as s, s.begin():
            if what == 0:
                queue.answer(rng.choice(ids), rng.choice([Rating.Again, Rating.Good, Rating.Easy]), now=T0)
            elif what == 1:       # a tie with another card
                a, b = rng.sample(ids, 2)
                s.execute(sqlalchemy.text("UPDATE cards SET due = (SELECT due FROM cards WHERE id = :b) WHERE id = :a"),
                          {"a": a, "b": b})
            elif what == 2:
                s.execute(sqlalchemy.text("UPDATE cards SET retired = 1 - retired WHERE id = :i"), {"i": rng.choice(ids)})
            elif what == 3:
                s.execute(sqlalchemy.text("UPDATE cards SET tags = 'x' WHERE id = :i"), {"i": rng.choice(ids)})  # moves none
            elif what == 4:
                ids.append(create_card(collection, CardDraft(q_en=f"softmax new {step}", a_en="a"))[0])
            else:
                victim = ids.pop(rng.randrange(len(ids)))
                delete_cards(collection, [victim])
        if step % 5 == 4:     # another connection (another process)
            other = sqlite3.connect(collection.db.path)
            other.execute("UPDATE cards SET due = '2001-01-01 00:00:00.000000' WHERE id = ?", (rng.choice(ids),))
            other.commit()
            other.close()
        check(f"step {step}")
    assert kept.computed == start[0] and kept.patched >= start[1] + 30      # never read again

    # the log cut below the kept entry (as after a restore of another file's backup): read again
    with collection.db.session() as s, s.begin():
        s.execute(sqlalchemy.text("UPDATE card_changes SET nonce = nonce + 1"))
        s.execute(sqlalchemy.text("UPDATE cards SET due = '2002-02-02 00:00:00.000000' WHERE id = :i"), {"i": ids[0]})
    check("another log")
    assert kept.computed == start[0] + 1
    # more changes than a patch takes: read again
    with collection.db.session() as s, s.begin():
        for n in range(cards_mod.MAX_PATCH + 1):
            s.execute(sqlalchemy.text("UPDATE cards SET due = :d WHERE id = :i"),
                      {"d": f"2003-01-01 00:00:{n % 60:02d}.000000", "i": ids[n % len(ids)]})
    check("many changes")
    assert kept.computed == start[0] + 2
    # a due that is not a stored date (written by hand): patched? no, read again the slow way
    with collection.db.session() as s, s.begin():
        s.execute(sqlalchemy.text("UPDATE cards SET due = '2004-01-01' WHERE id = :i"), {"i": ids[1]})
    check("bare date")


def test_the_change_log_keeps_only_its_newest_entries(collection):
    import sqlalchemy

    from studio.core.models import CHANGE_LOG_KEEP

    card = create_card(collection, CardDraft(q_en="q", a_en="a"))[0]
    with collection.db.session() as s, s.begin():
        for n in range(CHANGE_LOG_KEEP + 50):
            s.execute(sqlalchemy.text("UPDATE cards SET due = :d WHERE id = :i"),
                      {"d": f"2020-01-01 00:00:00.{n:06d}", "i": card})
    with collection.db.engine.connect() as conn:
        count, low, high = conn.exec_driver_sql("SELECT count(*), min(seq), max(seq) FROM card_changes").one()
    assert count == CHANGE_LOG_KEEP and high - low == CHANGE_LOG_KEEP - 1
