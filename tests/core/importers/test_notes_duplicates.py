"""The same question twice: listed, and handled by keep-both, keep-newest or skip; never lost silently."""

from __future__ import annotations

import json
import os

import pytest
from fsrs import Rating
from sqlalchemy import select

from studio import app
from studio.core.importers.notes_import import apply_import, plan_import
from studio.core.models import Card
from studio.core.review import ReviewQueue

TWICE = """Q: What is NVLink?
A: A GPU-to-GPU interconnect.

Q: What is NVSwitch?
A: A switch chip joining NVLinks.

Q: What  is nvlink?
A: NVIDIA's point-to-point link, 900 GB/s per H100.
"""
FIRST, LATER = "A GPU-to-GPU interconnect.", "NVIDIA's point-to-point link, 900 GB/s per H100."


def _write(path, text: str, mtime: float | None = None):
    path.write_text(text, encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def _answers(col, question: str = "nvlink") -> list[str]:
    with col.db.session() as s:
        return sorted(c.a_en for c in s.scalars(select(Card).where(Card.source != "shipped"))
                      if question in c.q_en.lower())


def test_duplicates_in_one_file_are_listed_with_their_lines(collection, tmp_path):
    path = _write(tmp_path / "n.md", TWICE)
    plan = plan_import([path], col=collection)
    (dup,) = plan.duplicates
    assert [c.card.line for c in dup.cards] == [1, 7] and dup.existing is None
    assert len({c.key for c in plan.cards}) == 3  # the later one has a key of its own
    assert plan_import([path]).duplicates == []  # listed only when planned against a collection


@pytest.mark.parametrize("policy, new, answers", [
    ("keep_both", 3, sorted([FIRST, LATER])),
    ("keep_newest", 2, [LATER]),
    ("skip", 2, [FIRST]),
])
def test_each_policy_does_what_it_says(collection, tmp_path, policy, new, answers):
    path = _write(tmp_path / "n.md", TWICE)
    summary = apply_import(collection, plan_import([path]), duplicates=policy)
    assert (summary.cards, summary.cards_updated) == (new, 0)
    assert _answers(collection) == answers
    (dup,) = summary.duplicates
    assert summary.to_json()["duplicates"][0]["where"] == [f"{path}:1", f"{path}:7"]
    assert summary.to_json()["duplicates"][0]["action"] == policy
    assert any(line.startswith("duplicate: 'What is NVLink?' at ") for line in summary.lines())


def test_reimport_of_an_unchanged_file_is_not_a_duplicate(collection, tmp_path):
    path = _write(tmp_path / "n.md", TWICE)
    apply_import(collection, plan_import([path]))
    again = apply_import(collection, plan_import([path]))
    assert (again.cards, again.cards_updated, again.duplicates) == (0, 0, [])
    assert plan_import([path], col=collection).duplicates == []
    assert _answers(collection) == sorted([FIRST, LATER])


def test_a_question_already_in_the_collection_under_another_key(collection, tmp_path):
    old = _write(tmp_path / "old.md", "Q: What is NVLink?\nA: A GPU-to-GPU interconnect.\n")
    apply_import(collection, plan_import([old]))
    queue = ReviewQueue(collection)
    card = queue.next_card()
    queue.answer(card.id, Rating.Good)
    before = queue.get(card.id)
    new = _write(tmp_path / "new.md", "Q: what is NVLink?\nA: NVIDIA's point-to-point link, 900 GB/s per H100.\n")

    (dup,) = plan_import([new], col=collection).duplicates
    assert dup.existing is not None and dup.existing.id == card.id and len(dup.cards) == 1
    skipped = apply_import(collection, plan_import([new]), duplicates="skip")
    assert (skipped.cards, skipped.cards_updated) == (0, 0) and _answers(collection) == [FIRST]

    newest = apply_import(collection, plan_import([new]), duplicates="keep_newest")
    assert (newest.cards, newest.cards_updated) == (0, 1)
    assert _answers(collection) == [LATER]
    after = queue.get(card.id)
    assert (after.reps, after.due, after.stability) == (before.reps, before.due, before.stability)
    assert "replaced the text of card #" in newest.duplicates[0].outcome("keep_newest")
    # The merged card is now new.md's own card: importing new.md again is a re-import.
    again = apply_import(collection, plan_import([new]))
    assert (again.cards, again.cards_updated, again.duplicates) == (0, 0, [])

    # Both files again: each has its own card (old.md's took new.md's text); the newest stays.
    both = apply_import(collection, plan_import([old, new]))
    assert (both.cards, both.cards_updated, both.duplicates) == (0, 0, [])
    assert _answers(collection) == [LATER]


def test_across_two_files_the_newest_file_wins(collection, tmp_path):
    a = _write(tmp_path / "a.md", "Q: What is NVLink?\nA: A GPU-to-GPU interconnect.\n", mtime=2_000_000_000)
    b = _write(tmp_path / "b.md", "Q: What is NVLink?\nA: NVIDIA's point-to-point link, 900 GB/s per H100.\n",
               mtime=1_900_000_000)
    summary = apply_import(collection, plan_import([tmp_path]), duplicates="keep_newest")
    (dup,) = summary.duplicates
    assert [c.path for c in dup.cards] == [b, a]  # oldest first: a.md was saved later
    assert summary.cards == 1 and _answers(collection) == [FIRST]


def test_cli_duplicates_flag(tmp_path, capsys):
    path = _write(tmp_path / "n.md", TWICE)
    assert app.main(["import", "notes", str(path), "--duplicates", "skip", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cards"] == 2
    (dup,) = out["duplicates"]
    assert dup["action"] == "skip" and dup["outcome"] == f"kept {path}:1, skipped the rest"
    with pytest.raises(SystemExit):
        app.main(["import", "notes", str(path), "--duplicates", "keep_both"])  # the flag spells it keep-both


@pytest.mark.parametrize("policy, kept", [("keep_newest", LATER), ("skip", FIRST)])
def test_a_decision_sticks_until_the_text_changes(collection, tmp_path, policy, kept):
    path = _write(tmp_path / "n.md", TWICE)
    apply_import(collection, plan_import([path]), duplicates=policy)
    again = apply_import(collection, plan_import([path]))  # default keep_both: nothing reopened
    assert (again.cards, again.cards_updated, again.duplicates) == (0, 0, [])
    assert plan_import([path], col=collection).duplicates == []
    assert _answers(collection) == [kept]
    edited = TWICE.replace(FIRST, "An interconnect between GPUs.").replace(LATER, "A 900 GB/s link.")
    _write(path, edited)
    changed = apply_import(collection, plan_import([path]))  # changed text: asked again, kept both
    assert len(changed.duplicates) == 1 and changed.cards == 1
    assert _answers(collection) == ["A 900 GB/s link.", "An interconnect between GPUs."]


def test_keep_both_gives_a_merged_card_back_to_its_own_file(collection, tmp_path):
    old = _write(tmp_path / "old.md", "Q: What is NVLink?\nA: A GPU-to-GPU interconnect.\n")
    new = _write(tmp_path / "new.md", "Q: What is NVLink?\nA: NVIDIA's point-to-point link, 900 GB/s per H100.\n")
    apply_import(collection, plan_import([old]))
    apply_import(collection, plan_import([new]), duplicates="keep_newest")
    with collection.db.session() as s:
        (merged_id,) = [c.id for c in s.scalars(select(Card).where(Card.source == "imported"))]
    _write(old, "Q: What is NVLink?\nA: An interconnect between GPUs.\n")
    summary = apply_import(collection, plan_import([old, new]))
    (dup,) = summary.duplicates
    assert {c.path for c in dup.cards} == {old, new}
    assert (summary.cards, summary.cards_updated) == (1, 1)
    with collection.db.session() as s:
        cards = {c.a_en: c.id for c in s.scalars(select(Card).where(Card.source == "imported"))}
    assert cards["An interconnect between GPUs."] == merged_id  # old.md's card, its scheduling with it
    assert set(cards) == {"An interconnect between GPUs.", LATER}
    assert apply_import(collection, plan_import([old, new])).duplicates == []
