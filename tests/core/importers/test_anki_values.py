"""Impossible numbers and dates in a deck: the card or review they belong to is dropped with a
line naming the note and the value, and the rest of the deck imports (the old importer either
called the whole deck damaged or ended in a traceback while writing)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone

from sqlalchemy import func, select

from studio.core.importers.anki import apply_cards, plan_cards
from studio.core.models import Card, ReviewLog
from tests.core.importers.test_anki import T0_MS, DAY_MS, make_apkg

BASIC = 10
FAR_FUTURE_MS = int(datetime(9999, 12, 1, tzinfo=timezone.utc).timestamp() * 1000)


def _note(nid: int, guid: str, *mod: int):
    return (nid, guid, BASIC, "", [f"Question {guid}?", f"Answer {guid}"], *mod)


def _card(cid: int, nid: int, ctype: int = 0, due=0, ivl=0, factor=0, data="", ord_=0):
    return (cid, nid, 1, ord_, ctype, ctype, due, ivl, factor, 3 if ctype == 2 else 0, 0, data)


def _cards_by_key(collection) -> dict[str, Card]:
    with collection.db.session() as s:
        return {c.key: c for c in s.scalars(select(Card).where(Card.key.like("anki:%")))}


def test_reviews_at_impossible_times_are_dropped_and_the_rest_kept(collection, tmp_path):
    """Review times past year 9999 raised in datetime (ValueError: the whole deck 'damaged');
    one in 9999 itself passed, then overflowed in FSRS while writing (a traceback)."""
    revlog = [(T0_MS, 11, 3, 5000, 0), (T0_MS + 2 * DAY_MS, 11, 3, 4000, 1),
              (FAR_FUTURE_MS, 11, 3, 4000, 1), (2**62, 11, 4, 4000, 1), (-5, 11, 3, 0, 1),
              (T0_MS + 5, 11, "x", 100, 1), (T0_MS + 6, 11, 3, 10**15, 1),
              (T0_MS + 3 * DAY_MS, 21, 3, 6000, 0)]
    deck = make_apkg(tmp_path, notes=[_note(1, "gRev"), _note(2, "gOk")],
                     cards=[_card(11, 1), _card(21, 2)], revlog=revlog)
    plan = plan_cards(deck)
    assert len(plan.cards) == 2
    line = next(p for p in plan.problems if "gRev" in p)
    assert line == (f"{deck}: note gRev card 1: review times -5, {FAR_FUTURE_MS}, 4611686018427387904 (revlog id) "
                    "and answer 'x' of type 1 are impossible; those 4 reviews are dropped")
    assert not any("gOk" in p for p in plan.problems)
    summary = apply_cards(collection, plan)
    assert summary.cards == 2
    cards = _cards_by_key(collection)
    assert cards["anki:gRev"].reps == 3  # the two good reviews, and the one with an absurd answer time
    with collection.db.session() as s:
        durations = sorted(d or 0 for d in s.scalars(select(ReviewLog.duration_ms).where(
            ReviewLog.card_id == cards["anki:gRev"].id)))
    assert durations == [0, 4000, 5000]  # 10**15 ms is no answer time: kept as unknown
    assert cards["anki:gOk"].reps == 1


def test_impossible_scheduling_numbers_start_the_card_as_new(collection, tmp_path):
    """A due day of 10**9 or an interval of 10**12 overflowed timedelta while writing, and a
    stability of "abc" failed float(): each a traceback and a rolled-back import."""
    notes = [_note(1, "gDue"), _note(2, "gIvl"), _note(3, "gMem"), _note(4, "gFine")]
    cards = [_card(11, 1, ctype=2, due=10**9, ivl=5, factor=2500),
             _card(21, 2, ctype=2, due=80, ivl=10**12, factor=2500),
             _card(31, 3, ctype=2, due=80, ivl=7, factor=2500, data=json.dumps({"s": "abc", "d": 1e999})),
             _card(41, 4, ctype=2, due=80, ivl=9, factor=2500, data=json.dumps({"s": 12.5, "d": 3.0}))]
    deck = make_apkg(tmp_path, notes=notes, cards=cards, revlog=[])
    plan = plan_cards(deck)
    assert f"{deck}: note gDue card 1: due day 1000000000 is impossible; Anki's scheduling is dropped and the " \
           "card starts as new" in plan.problems
    assert f"{deck}: note gIvl card 1: interval 1000000000000 is impossible; Anki's scheduling is dropped and " \
           "the card starts as new" in plan.problems
    assert f"{deck}: note gMem card 1: FSRS stability 'abc' is impossible; taken from the interval instead; " \
           "FSRS difficulty inf is impossible; taken from the interval instead" in plan.problems
    summary = apply_cards(collection, plan)
    assert summary.cards == 4
    cards = _cards_by_key(collection)
    assert cards["anki:gDue"].last_review is None and cards["anki:gIvl"].last_review is None
    assert cards["anki:gMem"].stability == 7.0 and cards["anki:gMem"].difficulty == 5.0
    assert (cards["anki:gFine"].stability, cards["anki:gFine"].difficulty) == (12.5, 3.0)


def test_an_impossible_creation_time_or_note_time_is_named(collection, tmp_path):
    deck = make_apkg(tmp_path, notes=[_note(1, "gA", 10**15), _note(2, "gB", 1_700_000_000)],
                     cards=[_card(11, 1, ctype=2, due=80, ivl=5, factor=2500), _card(21, 2)], revlog=[])
    db = sqlite3.connect(tmp_path / "deck.apkg.sqlite")
    db.execute("UPDATE col SET crt = ?", (2**60,))
    db.commit()
    db.close()
    import zipfile

    with zipfile.ZipFile(deck, "w") as zf:
        zf.write(tmp_path / "deck.apkg.sqlite", "collection.anki2")
    plan = plan_cards(deck)
    assert f"{deck}: the collection's creation time {2**60} is impossible; cards without review history start " \
           "as new" in plan.problems
    assert f"{deck}: note gA: modification time 1000000000000000 is impossible; file order stands for it" \
        in plan.problems
    assert [c.modified for c in plan.cards] == [None, 1_700_000_000]
    assert apply_cards(collection, plan).cards == 2
    assert _cards_by_key(collection)["anki:gA"].last_review is None


def test_unreadable_keys_and_values_skip_only_their_cards(collection, tmp_path):
    """Text where Anki keeps numbers, a missing guid, fields stored as a blob: the old importer
    called the whole deck damaged (TypeError) and imported nothing."""
    deck = make_apkg(tmp_path, notes=[_note(1, "gOk"), _note(2, "gOrd"), (3, None, BASIC, "", ["No guid", "x"]),
                                      _note(4, "gBlob")],
                     cards=[_card(11, 1), _card(21, 2, ord_="x"), _card(31, 3), _card(41, 4)], revlog=[])
    db = sqlite3.connect(tmp_path / "deck.apkg.sqlite")
    db.execute("UPDATE notes SET flds = ? WHERE id = 4", ("Blob question?\x1fBlob answer".encode(),))
    db.commit()
    db.close()
    import zipfile

    with zipfile.ZipFile(deck, "w") as zf:
        zf.write(tmp_path / "deck.apkg.sqlite", "collection.anki2")
    plan = plan_cards(deck)
    assert [c.key for c in plan.cards] == ["anki:gOk", "anki:gBlob"]
    assert plan.cards[1].q_en == "Blob question?"
    assert f"{deck}: note gOrd: a card with id 21 and template number 'x' cannot be read; skipped" in plan.problems
    assert any("a note with id 3 and guid '' cannot be keyed" in p for p in plan.problems)
    assert apply_cards(collection, plan).cards == 2
    with collection.db.session() as s:
        assert s.scalar(select(func.count(Card.id)).where(Card.key.like("anki:%"))) == 2
