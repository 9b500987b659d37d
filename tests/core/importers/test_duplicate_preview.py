"""The duplicate preview lists what the chosen policy will change, an earlier decision it reopens
included (issue #16 audit: after "skip", a new preview listed nothing, yet keep-newest then
replaced the collection card's text)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from studio.core.collection import utcnow
from studio.core.importers.anki import apply_cards, plan_cards
from studio.core.importers.notes_import import apply_import, plan_import
from studio.core.models import Card

POLICIES = ("keep_both", "keep_newest", "skip")


def _user_card(collection) -> int:
    now = utcnow()
    with collection.db.session() as s, s.begin():
        card = Card(key="user:nvlink", source="user", q_en="What is NVLink?", a_en="Something NVIDIA makes",
                    created_at=now, modified_at=now, due=now + timedelta(days=9), stability=12.0,
                    difficulty=4.0, reps=3, fsrs_state=2)
        s.add(card)
        s.flush()
        return card.id


def _texts(collection) -> dict[int, tuple[str, str]]:
    with collection.db.session() as s:
        return {c.id: (c.q_en, c.a_en) for c in s.scalars(select(Card).where(Card.source != "shipped"))}


def _shown(dups) -> list[tuple]:
    return [(d.question, [c.key for c in d.cards], d.existing.id if d.existing else None) for d in dups]


def _anki_after_skip(collection, tmp_path):
    card_id = _user_card(collection)
    deck = tmp_path / "deck.csv"
    deck.write_text("What is NVLink?,A 900 GB/s link\nWhat is NCCL?,Collectives\n", encoding="utf-8")
    first = apply_cards(collection, plan_cards(deck, col=collection), duplicates="skip")
    assert first.cards == 1 and _texts(collection)[card_id] == ("What is NVLink?", "Something NVIDIA makes")
    return card_id, deck


def test_anki_preview_after_skip_lists_what_keep_newest_would_replace(collection, tmp_path):
    card_id, deck = _anki_after_skip(collection, tmp_path)
    plan = plan_cards(deck, col=collection)
    (dup,) = plan.duplicates_by_policy["keep_newest"]
    assert dup.existing.id == card_id and [c.key for c in dup.reopened] == [dup.cards[0].key]
    assert dup.describe("keep_newest") == (
        f"'What is NVLink?' at line 1 and card #{card_id} in the collection: line 1 replaced the text of card "
        f"#{card_id} (its scheduling kept) (an earlier import left out line 1; decided again)")
    assert plan.duplicates_by_policy["keep_both"] == [] and plan.duplicates_by_policy["skip"] == []
    summary = apply_cards(collection, plan, duplicates="keep_newest")
    assert _shown(summary.duplicates) == _shown(plan.duplicates_by_policy["keep_newest"])
    assert _texts(collection)[card_id] == ("What is NVLink?", "A 900 GB/s link")


@pytest.mark.parametrize("policy", POLICIES)
def test_anki_nothing_changes_that_the_chosen_preview_did_not_show(collection, tmp_path, policy):
    card_id, deck = _anki_after_skip(collection, tmp_path)
    before = _texts(collection)
    plan = plan_cards(deck, col=collection)
    shown = plan.duplicates_by_policy[policy]
    summary = apply_cards(collection, plan, duplicates=policy)
    assert _shown(summary.duplicates) == _shown(shown)
    changed = {i for i, text in _texts(collection).items() if before.get(i) != text}
    assert changed == ({card_id} if any(d.existing for d in shown) and policy == "keep_newest" else set())


@pytest.mark.parametrize("policy", POLICIES)
def test_notes_nothing_changes_that_the_chosen_preview_did_not_show(collection, tmp_path, policy):
    card_id = _user_card(collection)
    note = tmp_path / "n.md"
    note.write_text("Q: What is NVLink?\nA: A 900 GB/s link.\n", encoding="utf-8")
    apply_import(collection, plan_import([note], col=collection), duplicates="skip")
    before = _texts(collection)
    assert before[card_id] == ("What is NVLink?", "Something NVIDIA makes")
    plan = plan_import([note], col=collection)
    shown = plan.duplicates_by_policy[policy]
    assert [bool(d.reopened) for d in shown] == ([True] if policy == "keep_newest" else [])
    summary = apply_import(collection, plan, duplicates=policy)
    assert _shown(summary.duplicates) == _shown(shown)
    changed = {i for i, text in _texts(collection).items() if before.get(i) != text}
    assert changed == ({card_id} if policy == "keep_newest" else set())
