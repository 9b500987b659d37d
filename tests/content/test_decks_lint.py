"""Content lint for the shipped decks: schema, stable unique ids, nodes, languages, coverage."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from studio import paths
from studio.core.decks import load_decks
from studio.core.roadmap import load_roadmap

MINIMUMS = {"triton": 60, "cuda": 60, "parallel": 60, "inference": 60, "optim": 40}
STABLE_IDS = Path(__file__).with_name("shipped_card_ids.txt")


@pytest.fixture(scope="module")
def decks():
    decks, problems = load_decks(paths.content_dir() / "decks")
    assert problems == [], "\n".join(map(str, problems))
    return decks


@pytest.fixture(scope="module")
def cards(decks):
    return [card for deck in decks for card in deck.cards]


def test_at_least_400_cards_with_topic_minimums(cards):
    assert len(cards) >= 400
    per_topic = Counter(card.topic for card in cards)
    for topic, minimum in MINIMUMS.items():
        assert per_topic[topic] >= minimum, f"{topic}: {per_topic[topic]} < {minimum}"


def test_every_card_points_at_an_existing_node(cards):
    roadmap = load_roadmap(paths.content_dir() / "roadmap.yaml")
    unknown = [f"{c.id} -> {c.node}" for c in cards if c.node not in roadmap.nodes]
    assert unknown == []


def test_both_languages_present_and_fields_valid(cards):
    for card in cards:
        assert card.q_en.strip() and card.q_zh.strip(), card.id
        if card.kind == "qa":
            assert card.a_en.strip() and card.a_zh.strip(), card.id
        assert re.search(r"[\u4e00-\u9fff]", card.q_zh + card.a_zh), f"{card.id}: Chinese side has no Chinese"
        assert card.tags, f"{card.id}: no tags"
        assert card.level in (1, 2, 3)


def test_no_two_cards_ask_the_same_question(cards):
    def norm(text: str) -> str:
        return re.sub(r"\W+", " ", text.lower()).strip()

    seen: dict[str, str] = {}
    for card in cards:
        key = norm(card.q_en)
        assert key not in seen, f"{card.id} repeats the question of {seen.get(key)}"
        seen[key] = card.id


def test_python_code_in_cards_compiles(cards):
    fence = re.compile(r"```python\n(.*?)```", re.S)
    for card in cards:
        for block in fence.findall("\n".join((card.q_en, card.a_en, card.q_zh, card.a_zh))):
            compile(block, card.id, "exec")


def test_some_cloze_cards_and_no_placeholder_text(cards):
    assert sum(c.kind == "cloze" for c in cards) >= 20
    for card in cards:
        text = " ".join((card.q_en, card.a_en))
        assert not re.search(r"\b(TODO|TBD|lorem ipsum|placeholder)\b", text, re.I), card.id
        assert not re.match(r"^Question \d+", card.q_en), card.id


def test_shipped_ids_are_stable(cards):
    """Ids once shipped never disappear: a user's scheduling is keyed by them."""
    current = {c.id for c in cards}
    shipped = {line.strip() for line in STABLE_IDS.read_text().splitlines() if line.strip()}
    missing = sorted(shipped - current)
    assert missing == [], f"shipped card ids removed or renamed: {missing[:10]}"
