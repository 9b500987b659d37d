"""The same question twice: inside one deck or CSV, or already in the collection under another
key. Listed in the plan (its problems, for the preview) and in the summary's duplicates, as the
notes importer lists them; decided by keep_both / keep_newest / skip; importing the same deck
again is a re-import, not a new duplicate."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from studio.app import main
from studio.core.collection import utcnow
from studio.core.importers.anki import apply_cards, plan_cards
from studio.core.models import Card
from tests.core.importers.test_anki import make_apkg

BASIC = 10
# gA is the newer note (Anki mod time) although it comes first in the file.
NVLINK_A = (1, "gA", BASIC, "", ["What is NVLink?", "A GPU interconnect"], 1_700_002_000)
NVLINK_B = (2, "gB", BASIC, "", ["what is  NVLink?", "A 900 GB/s link"], 1_700_001_000)
NCCL = (3, "gC", BASIC, "", ["What is NCCL?", "Collectives"], 1_700_000_000)


def _deck(tmp_path, *notes, name="deck.apkg"):
    cards = [(n[0] * 10, n[0], 1, 0, 0, 0, n[0], 0, 0, 0, 0, "") for n in notes]
    return make_apkg(tmp_path, name=name, notes=list(notes), cards=cards, revlog=[])


def _imported(collection) -> dict[str, Card]:
    with collection.db.session() as s:
        return {c.key: c for c in s.scalars(select(Card).where(Card.source != "shipped"))}


def _lines(summary):
    return [d.describe(summary.duplicate_policy) for d in summary.duplicates]


def test_the_plan_lists_a_question_found_twice_in_the_deck(tmp_path):
    deck = _deck(tmp_path, NVLINK_A, NVLINK_B, NCCL)
    plan = plan_cards(deck)
    assert len(plan.cards) == 3 and len(plan.duplicates) == 1
    assert [c.key for c in plan.duplicates[0].cards] == ["anki:gA", "anki:gB"]
    assert plan.problems == [f"{deck}: the same question 'What is NVLink?' at note gA card 1, note gB card 1: "
                             "--duplicates keep-both (the default), keep-newest or skip decides"]


def test_keep_both_keeps_both_and_says_so(collection, tmp_path):
    deck = _deck(tmp_path, NVLINK_A, NVLINK_B, NCCL)
    summary = apply_cards(collection, plan_cards(deck))
    assert summary.cards == 3 and summary.problems == []  # the plan's line gives way to the outcome
    assert _lines(summary) == ["'What is NVLink?' at note gA card 1, note gB card 1: kept both"]
    assert summary.to_json()["duplicates"] == [{
        "question": "What is NVLink?", "where": ["note gA card 1", "note gB card 1"], "existing": None,
        "action": "keep_both", "outcome": "kept both"}]
    again = apply_cards(collection, plan_cards(deck))  # a re-import: both already have their card
    assert (again.cards, again.cards_updated, again.problems, again.duplicates) == (0, 0, [], [])


def test_keep_newest_follows_anki_mod_time_over_file_order(collection, tmp_path):
    deck = _deck(tmp_path, NVLINK_A, NVLINK_B, NCCL)  # gA comes first in the file but was edited later
    summary = apply_cards(collection, plan_cards(deck), duplicates="keep_newest")
    cards = _imported(collection)
    assert summary.cards == 2 and set(cards) == {"anki:gA", "anki:gC"}
    assert cards["anki:gA"].a_en == "A GPU interconnect"
    assert _lines(summary) == ["'What is NVLink?' at note gA card 1, note gB card 1: kept the newest, note gA card 1"]
    again = apply_cards(collection, plan_cards(deck))  # default keep_both: the decision stands
    assert (again.cards, again.cards_updated, again.problems, again.duplicates) == (0, 0, [], [])


def test_skip_keeps_the_first_in_the_file(collection, tmp_path):
    older_first = NVLINK_A[:5] + (1_600_000_000,)
    deck = _deck(tmp_path, older_first, NVLINK_B, NCCL)
    summary = apply_cards(collection, plan_cards(deck), duplicates="skip")
    cards = _imported(collection)
    assert summary.cards == 2 and set(cards) == {"anki:gA", "anki:gC"}
    assert _lines(summary)[0].endswith("kept note gA card 1, skipped the rest")
    again = apply_cards(collection, plan_cards(deck))
    assert (again.cards, again.cards_updated, again.problems, again.duplicates) == (0, 0, [], [])


def _user_card(collection) -> int:
    now = utcnow()
    with collection.db.session() as s, s.begin():
        card = Card(key="user:nvlink", source="user", q_en="What is NVLink?", a_en="Something NVIDIA makes",
                    tags="mine", created_at=now, modified_at=now, due=now + timedelta(days=9),
                    last_review=now - timedelta(days=3), stability=12.0, difficulty=4.0, reps=3,
                    fsrs_state=2, fsrs_step=None)
        s.add(card)
        s.flush()
        return card.id


def test_a_question_already_in_the_collection_is_listed_in_the_preview(collection, tmp_path):
    card_id = _user_card(collection)
    deck = _deck(tmp_path, NVLINK_B, NCCL)
    assert plan_cards(deck).duplicates == []  # without the collection, nothing to compare with
    plan = plan_cards(deck, col=collection)
    assert plan.problems == [f"{deck}: the same question 'what is  NVLink?' at note gB card 1 and card #{card_id} "
                             "in the collection: --duplicates keep-both (the default), keep-newest or skip decides"]
    summary = apply_cards(collection, plan)
    assert summary.cards == 2 and _lines(summary)[0].endswith(f"and card #{card_id} in the collection: kept both")


def test_keep_newest_puts_the_imported_text_into_the_collections_card(collection, tmp_path):
    card_id = _user_card(collection)
    before = _imported(collection)["user:nvlink"]
    deck = _deck(tmp_path, NVLINK_B, NCCL)
    summary = apply_cards(collection, plan_cards(deck), duplicates="keep_newest")
    assert (summary.cards, summary.cards_updated) == (1, 1)
    assert _lines(summary) == [f"'what is  NVLink?' at note gB card 1 and card #{card_id} in the collection: "
                               f"note gB card 1 replaced the text of card #{card_id} (its scheduling kept)"]
    cards = _imported(collection)
    assert set(cards) == {"user:nvlink", "anki:gC"}
    after = cards["user:nvlink"]
    assert (after.q_en, after.a_en, after.tags) == ("what is  NVLink?", "A 900 GB/s link", "mine")
    assert (after.due, after.last_review, after.stability, after.reps) == (
        before.due, before.last_review, before.stability, before.reps)
    assert json.loads(after.origin)["import_key"] == "anki:gB"
    again = apply_cards(collection, plan_cards(deck))  # the deck again: an update in place, not a duplicate
    assert (again.cards, again.cards_updated, again.problems, again.duplicates) == (0, 0, [], [])
    edited = _deck(tmp_path, NVLINK_B[:4] + (["what is  NVLink?", "NVLink 4: 900 GB/s"],), NCCL, name="v2.apkg")
    third = apply_cards(collection, plan_cards(edited))
    assert (third.cards, third.cards_updated, third.problems, third.duplicates) == (0, 1, [], [])
    assert _imported(collection)["user:nvlink"].a_en == "NVLink 4: 900 GB/s"


def test_skip_leaves_the_collections_card_and_stays_decided(collection, tmp_path):
    _user_card(collection)
    deck = _deck(tmp_path, NVLINK_B, NCCL)
    summary = apply_cards(collection, plan_cards(deck), duplicates="skip")
    assert summary.cards == 1 and _lines(summary)[0].endswith("skipped; the collection's card stays")
    assert _imported(collection)["user:nvlink"].a_en == "Something NVIDIA makes"
    again = apply_cards(collection, plan_cards(deck))
    assert (again.cards, again.duplicates) == (0, [])
    reopened = apply_cards(collection, plan_cards(deck), duplicates="keep_newest")  # another choice: asked again
    assert reopened.cards_updated == 1 and _imported(collection)["user:nvlink"].a_en == "A 900 GB/s link"


def test_reimporting_a_deck_without_duplicates_lists_none(collection, tmp_path):
    deck = _deck(tmp_path, NVLINK_A, NCCL)
    assert apply_cards(collection, plan_cards(deck)).cards == 2
    again = apply_cards(collection, plan_cards(deck, col=collection))
    assert (again.cards, again.cards_updated, again.problems, again.duplicates) == (0, 0, [], [])


def test_csv_rows_with_the_same_question_are_no_longer_merged(collection, tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("What is a warp?,32 threads\nWhat is an SM?,A multiprocessor\n"
                    "What is a warp?,The unit of scheduling\n", encoding="utf-8")
    plan = plan_cards(path)
    keys = [c.key for c in plan.cards]
    assert keys[2] == keys[0] + "-2"
    assert plan.problems == [f"{path}: the same question 'What is a warp?' at line 1, line 3: "
                             "--duplicates keep-both (the default), keep-newest or skip decides"]
    summary = apply_cards(collection, plan)
    assert summary.cards == 3  # the old importer kept one warp card and dropped the other answer
    answers = sorted(c.a_en for c in _imported(collection).values() if c.q_en == "What is a warp?")
    assert answers == ["32 threads", "The unit of scheduling"]
    assert apply_cards(collection, plan_cards(path)).duplicates == []


def test_csv_keep_newest_without_mod_times_keeps_the_later_row(collection, tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("What is a warp?,32 threads\nWhat is a warp?,The unit of scheduling\n", encoding="utf-8")
    summary = apply_cards(collection, plan_cards(path), duplicates="keep_newest")
    assert summary.cards == 1 and _lines(summary) == ["'What is a warp?' at line 1, line 2: kept the newest, line 2"]
    assert [c.a_en for c in _imported(collection).values()] == ["The unit of scheduling"]


def test_cli_duplicates_flag(tmp_path, capsys):
    deck = _deck(tmp_path, NVLINK_A, NVLINK_B, NCCL)
    assert main(["import", "anki", str(deck), "--duplicates", "keep-newest", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cards"] == 2 and data["problems"] == []
    assert [d["outcome"] for d in data["duplicates"]] == ["kept the newest, note gA card 1"]
    edited = _deck(tmp_path, NVLINK_A, NVLINK_B[:4] + (["what is  NVLink?", "Edited"], 1_700_009_000), NCCL,
                   name="v2.apkg")
    assert main(["import", "anki", str(edited), "--duplicates", "keep-both"]) == 0
    out = capsys.readouterr().out
    assert "duplicates: keep-both" in out and "duplicate: 'What is NVLink?' at note gA card 1, note gB card 1: kept both" \
        in out
    with pytest.raises(SystemExit):
        main(["import", "anki", str(deck), "--duplicates", "keep_both"])


def test_an_unknown_policy_is_refused(collection, tmp_path):
    with pytest.raises(ValueError, match="duplicates must be one of keep_both, keep_newest, skip"):
        apply_cards(collection, plan_cards(_deck(tmp_path, NCCL)), duplicates="newest")


def test_notes_from_the_same_cloze_text_are_not_duplicates(tmp_path):
    cloze = 20
    notes = [(1, "gZ", cloze, "", ["A warp has {{c1::32}} threads on {{c2::one}} SM", ""], 1)]
    cards = [(11, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, ""), (12, 1, 1, 1, 0, 0, 2, 0, 0, 0, 0, "")]
    plan = plan_cards(make_apkg(tmp_path, notes=notes, cards=cards, revlog=[]))
    assert len(plan.cards) == 2 and plan.duplicates == [] and plan.problems == []
