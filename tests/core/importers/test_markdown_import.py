"""Importing Markdown notes: card shapes, interview tables, encodings, re-import, fuzzing."""

from __future__ import annotations

import os
import textwrap
from datetime import datetime
from zoneinfo import ZoneInfo

from fsrs import Rating
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.importers.interview_tables import find_interview_rows
from studio.core.importers.markdown_qa import extract_cards
from studio.core.importers.notes_import import apply_import, plan_import
from studio.core.interviews import list_interviews
from studio.core.review import ReviewQueue

SHAPES = textwrap.dedent("""\
    ---
    title: 复习笔记
    date: 2025-03-01 10:00:00
    categories:
      - [study, gpu]
    tags: [cuda]
    ---

    # GPU 基础

    1. **Q1: 一个 warp 有多少线程？**
       **答：** 32 个，按 SIMT 方式一起执行。
       ```cuda
       // ## not a heading, **Q: not a question**
       int lane = threadIdx.x % 32;
       ```

    - **What does coalescing mean?**
      **A:** Neighbouring threads touch neighbouring addresses,
      so one transaction serves the warp.

    Shared memory bank count::32 banks of 4 bytes
    SM:::streaming multiprocessor

    ## 为什么 decode 阶段是访存瓶颈？
    每个 token 都要把全部权重读一遍，算得很少。

    Q: What is NVLink?
    A: A GPU-to-GPU interconnect.

    Name the three
    memory levels
    ?
    registers, shared memory, HBM

    ## Ordinary heading
    plain text, not a card.
""")

TABLE_ZH = textwrap.dedent("""\
    | 日期 | 记录 | 感受 | 结果 |
    | --- | --- | --- | --- |
    | 3/4 19：30 星河科技 推理优化 | 手写 layernorm + 问了 C++ 虚函数 | 还行 | 二面 |
    | 3/9 10:00 远山智能 | 聊项目 | 一般 | 挂 |
    |  |  |  |  |
    | 下周 | 没有日期 | | |
""")

TABLE_EN = textwrap.dedent("""\
    | Date | Company | Round | Questions | Result |
    |------|---------|-------|-----------|--------|
    | 2025-04-02 14:00 | Orbit AI | 1st technical | ring all-reduce; KV cache size | offer |
    | 2025-04-09 | Lumen | HR |
""")


def test_every_card_shape_is_found_with_its_line():
    cards = extract_cards(SHAPES)
    got = {(c.shape, c.question.replace("\n", " ")): c for c in cards}
    assert ("bold", "一个 warp 有多少线程？") in got
    warp = got[("bold", "一个 warp 有多少线程？")]
    assert warp.answer.startswith("32 个") and "int lane" in warp.answer and warp.line == 11
    assert got[("bold", "What does coalescing mean?")].answer.endswith("serves the warp.")
    assert got[("inline", "Shared memory bank count")].answer == "32 banks of 4 bytes"
    assert ("inline-reversed", "streaming multiprocessor") in got
    assert got[("heading", "为什么 decode 阶段是访存瓶颈？")].answer.startswith("每个 token")
    assert got[("qa-pair", "What is NVLink?")].answer == "A GPU-to-GPU interconnect."
    assert got[("multiline", "Name the three memory levels")].answer == "registers, shared memory, HBM"
    assert not any("Ordinary heading" in c.question for c in cards)
    assert not any("not a question" in c.question for c in cards)
    assert len(cards) == 8


def test_interview_tables_in_chinese_and_english():
    rows, problems = find_interview_rows(TABLE_ZH)
    assert [(r.company, r.result) for r in rows] == [("星河科技 推理优化", "passed"), ("远山智能", "rejected")]
    assert rows[0].when_text.strip() == "3/4 19:30"
    assert any("cannot read a date" in p.message and p.line == 6 for p in problems)
    rows, problems = find_interview_rows(TABLE_EN)
    assert [(r.company, r.fields.get("round"), r.result) for r in rows] == [
        ("Orbit AI", "1st technical", "offer"), ("Lumen", "HR", "waiting")]
    assert any("missing cells" in p.message for p in problems)


def _write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_import_folder_summary_encodings_and_problems(collection, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    _write(notes, "shapes.md", SHAPES.encode("utf-8"))
    _write(notes, "bom.md", "\ufeff".encode() + ("## 什么是 HBM？\n高带宽显存。\n").encode("utf-8"))
    _write(notes, "gbk.md", ("## 为什么要用 pinned memory？\n异步拷贝需要页锁定内存。\n\n" + TABLE_ZH).encode("gb18030"))
    _write(notes, "binary.md", b"\x00\x01\x02PNG\x00" * 50)
    _write(notes, "bad-front.md", b"---\ntitle: [unclosed\n---\n## Why?\nBecause.\n")
    plan = plan_import([notes])
    summary = apply_import(collection, plan, year=2025)
    assert summary.notes == 4  # binary skipped
    assert summary.cards == 8 + 1 + 1 + 1
    assert summary.interviews == 2
    text = "\n".join(summary.problems)
    assert "binary.md: skipped: binary file" in text
    assert "bad-front.md:1: front matter is not valid YAML" in text
    assert "gbk.md:" in text and "cannot read a date" in text
    companies = {i.company for i in list_interviews(collection)}
    assert companies == {"星河科技 推理优化", "远山智能"}
    layernorm = next(i for i in list_interviews(collection) if i.company.startswith("星河"))
    assert [q.text for q in layernorm.questions] == ["手写 layernorm", "问了 C++ 虚函数"]


def test_yearless_rows_take_the_file_time_year_and_say_so(collection, tmp_path):
    path = _write(tmp_path, "log.md", TABLE_ZH.encode())
    stamp = datetime(2024, 6, 30, 12, 0, tzinfo=ZoneInfo("Asia/Shanghai")).timestamp()
    os.utime(path, (stamp, stamp))
    summary = apply_import(collection, plan_import([path]))
    assert summary.interviews == 2
    assert {i.starts_at.year for i in list_interviews(collection)} == {2024}
    (assumed,) = summary.assumptions
    assert (assumed.rows, assumed.basis.kind) == (2, "file_time")
    assert "near the file's modification time 2024-06-30" in assumed.describe()
    assert not any("has no year" in p for p in summary.problems)


def test_reimport_updates_text_without_duplicates_and_keeps_scheduling(collection, tmp_path):
    path = _write(tmp_path, "n.md", SHAPES.encode())
    apply_import(collection, plan_import([path]), year=2025)
    queue = ReviewQueue(collection)
    first = queue.next_card()
    queue.answer(first.id, Rating.Good)
    before = queue.get(first.id)
    path.write_text(SHAPES.replace("32 个，按 SIMT", "32 个线程，按 SIMT"), encoding="utf-8")
    summary = apply_import(collection, plan_import([path]), year=2025)
    assert (summary.cards, summary.cards_updated) == (0, 1)
    assert collection.counts()["cards"] == 8
    after = queue.get(first.id)
    assert (after.due, after.reps) == (before.due, before.reps)


def test_unticked_cards_are_not_imported(collection, tmp_path):
    path = _write(tmp_path, "n.md", SHAPES.encode())
    plan = plan_import([path])
    for planned in plan.cards[1:]:
        planned.selected = False
    assert apply_import(collection, plan).cards == 1


def test_large_file_is_imported_and_oversized_one_refused(collection, tmp_path):
    big = ("## 什么是 SM？\n流式多处理器。\n\n" + "填充文字。" * 200_000 + "\n").encode()  # ~3 MB
    huge = b"# x\n" + b"a" * (21 * 1024 * 1024)
    plan = plan_import([_write(tmp_path, "big.md", big), _write(tmp_path, "huge.md", huge)])
    summary = apply_import(collection, plan)
    assert summary.notes == 1 and summary.cards == 1
    assert any("huge.md: skipped" in p and "MB" in p for p in summary.problems)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(list("#*-|:?：答问QA \n`~>1.[]()abc中文") + ["```", "**答：**", "::", ":::", "\n?\n",
                                                                           "| 日期 | 公司 |\n|---|---|\n", "- **Q: "]),
                max_size=120).map("".join))
def test_extractors_never_crash_on_random_markdown(text):
    for card in extract_cards(text):
        assert card.question.strip() and card.answer.strip()
    find_interview_rows(text)
