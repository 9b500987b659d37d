"""Content lint for the shipped notes: coverage of the roadmap, length, code and links."""

from __future__ import annotations

import re

import pytest

from studio import paths
from studio.core.decks import load_decks
from studio.core.frontmatter import split_front_matter
from studio.core.roadmap import load_roadmap

NOTES = paths.content_dir() / "notes"
ROADMAP = load_roadmap(paths.content_dir() / "roadmap.yaml")
SECOND_LEVEL = [child for area in ROADMAP.areas for child in area.children]


def _note(node_id: str, lang: str) -> str:
    return (NOTES / f"{node_id}.{lang}.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def card_ids():
    decks, _ = load_decks(paths.content_dir() / "decks")
    return {c.id for d in decks for c in d.cards}


def test_at_least_45_second_level_nodes():
    assert len(SECOND_LEVEL) >= 45


@pytest.mark.parametrize("node", SECOND_LEVEL, ids=lambda n: n.id)
def test_every_second_level_node_has_a_note_in_both_languages(node, card_ids):
    assert node.note, f"{node.id} links no note"
    en, zh = _note(node.note, "en"), _note(node.note, "zh")
    for lang, text in (("en", en), ("zh", zh)):
        front, body = split_front_matter(text)
        assert front.error == "" and front.title, f"{node.id}.{lang}: front matter"
        assert front.node == node.id
        for block in re.findall(r"```python\n(.*?)```", body, re.S):
            compile(block, f"{node.id}.{lang}", "exec")
        for target in re.findall(r"\[\[([^\]|#]+)", body):
            assert target.strip() in ROADMAP.nodes, f"{node.id}.{lang}: wiki-link to unknown [[{target}]]"
        for card in re.findall(r"\(card:([^)\s]+)\)", body):
            assert card in card_ids, f"{node.id}.{lang}: link to unknown card {card}"
    assert len(re.findall(r"[A-Za-z][A-Za-z'-]*", split_front_matter(en)[1])) >= 400, f"{node.id}.en too short"
    assert len(re.findall(r"[\u4e00-\u9fff]", zh)) >= 700, f"{node.id}.zh too short"
