"""A file that takes too long to read is reported and skipped; the rest of the import goes on."""

from __future__ import annotations

from studio.core.importers import notes_import
from studio.core.importers.notes_import import FILE_BUDGET_S, apply_import, plan_import


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_slow_file_is_skipped_with_a_message_and_the_others_import(collection, tmp_path, monkeypatch):
    for name in ("a.md", "b-slow.md", "c.md"):
        (tmp_path / name).write_text(f"Q: What is in {name}?\nA: A card.\n", encoding="utf-8")
    clock = FakeClock()
    real = notes_import.extract_cards

    def slow_extract(body):  # parsing this file "takes" eleven seconds
        if "b-slow" in body:
            clock.now += 11
        return real(body)

    monkeypatch.setattr(notes_import, "extract_cards", slow_extract)
    plan = plan_import([tmp_path], clock=clock)
    assert [p.name for p in plan.files] == ["a.md", "c.md"]
    assert plan.problems == [f"{tmp_path / 'b-slow.md'}: took too long to read (over 10 s); skipped"]
    assert apply_import(collection, plan).cards == 2
    assert FILE_BUDGET_S == 10.0


def test_each_file_gets_its_own_budget(tmp_path, monkeypatch):
    for i in range(4):
        (tmp_path / f"{i}.md").write_text(f"Q: Question {i}?\nA: Answer.\n", encoding="utf-8")
    clock = FakeClock()
    real = notes_import.find_interview_rows

    def tables(body):  # every file takes 0.6 s: 2.4 s in all, each within its 1 s
        clock.now += 0.6
        return real(body)

    monkeypatch.setattr(notes_import, "find_interview_rows", tables)
    plan = plan_import([tmp_path], clock=clock, file_budget_s=1.0)
    assert len(plan.files) == 4 and plan.problems == []
    clock.now = 0.0
    plan = plan_import([tmp_path], clock=clock, file_budget_s=0.5)
    assert plan.files == [] and len(plan.problems) == 4
    assert all("took too long to read (over 0.5 s); skipped" in p for p in plan.problems)
