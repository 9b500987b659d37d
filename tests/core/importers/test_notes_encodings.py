"""Encodings of imported notes: detected when clear, asked about when not, named in the summary."""

from __future__ import annotations

import json
import textwrap

import pytest

from studio import app
from studio.core.importers.notes_import import apply_import, plan_import
from studio.core.importers.text_files import EncodingUnclear, detect, read_file, read_text
from studio.core.models import Card

# German notes saved as Latin-1. Every accented letter is followed by a byte that makes a
# valid GB18030 pair, so the old UTF-8-then-GB18030 rule read this as Chinese characters.
LATIN = textwrap.dedent("""\
    # Notizen über GPUs

    Q: Was bedeutet naïve Speicherzugriff für Müllers Kernel?
    A: Jeder Thread lädt einzeln; die Größe der Transaktionen wächst, die Bandbreite fällt.

    Überlappung von Kopie und Rechnung hilft. Danach in die Caféteria.
""")

CHINESE = textwrap.dedent("""\
    ---
    title: 推理优化笔记
    date: 2025-05-10
    tags: [推理, 显存]
    ---
    # 推理优化

    ## 为什么 decode 阶段是访存瓶颈？
    每个 token 都要把全部权重读一遍，计算量却很少，所以受限于显存带宽。

    **Q1: KV cache 占多少显存？**
    **答：** 层数 × 2 × 头数 × 头维度 × 序列长度 × 字节数。

    | 日期 | 公司 | 记录 | 结果 |
    | --- | --- | --- | --- |
    | 5/19 20：00 | 星河科技 | 手写 layernorm，问了 C++ 虚函数 | 二面 |
""")


def _write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_latin1_note_is_not_read_as_chinese(tmp_path):
    data = LATIN.encode("latin-1")
    data.decode("gb18030")  # the trap: it decodes, into the wrong characters
    reading = detect(data)
    assert not reading.sure
    assert reading.candidates[0] == "cp1252" and "gb18030" not in reading.candidates
    path = _write(tmp_path, "notizen.md", data)
    with pytest.raises(EncodingUnclear) as caught:
        read_text(path)
    assert "not UTF-8 or GB18030" in str(caught.value) and "cp1252" in str(caught.value)
    plan = plan_import([path])
    assert plan.cards == [] and plan.files == []
    assert plan.unclear[path][0] == "cp1252"
    (problem,) = plan.problems
    assert problem.startswith(f"{path}: skipped: not UTF-8 or GB18030 text, and its encoding is not clear")
    assert "--encoding NAME, e.g. --encoding cp1252" in problem


def test_encoding_option_reads_the_unclear_file_and_the_summary_names_it(collection, tmp_path):
    latin = _write(tmp_path, "notizen.md", LATIN.encode("latin-1"))
    utf8 = _write(tmp_path, "utf8.md", "Q: Was ist ein Warp?\nA: 32 Threads, gemeinsam ausgeführt.\n".encode())
    plan = plan_import([latin, utf8], encoding="latin-1")
    (card, other) = plan.cards
    assert card.card.question == "Was bedeutet naïve Speicherzugriff für Müllers Kernel?"
    assert card.card.answer.startswith("Jeder Thread lädt einzeln; die Größe")
    assert other.card.answer == "32 Threads, gemeinsam ausgeführt."  # UTF-8 stays UTF-8
    summary = apply_import(collection, plan)
    assert summary.encodings[str(latin)].name == "latin-1" and str(utf8) not in summary.encodings
    assert f"encoding: {latin}: read as latin-1 (--encoding)" in summary.lines()
    assert summary.to_json()["encodings"] == {str(latin): "latin-1"}


@pytest.mark.parametrize("text", [CHINESE, "## 什么是 HBM？\n高带宽显存。\n"], ids=["note", "two-lines"])
def test_gb18030_chinese_notes_import_without_a_question(collection, tmp_path, text):
    path = _write(tmp_path, "笔记.md", text.encode("gb18030"))
    plan = plan_import([path])
    assert plan.unclear == {} and plan.files == [path]
    assert (plan.encodings[path].name, plan.encodings[path].how) == ("gb18030", "detected")
    assert plan.cards[0].card.question in ("为什么 decode 阶段是访存瓶颈？", "什么是 HBM？")
    summary = apply_import(collection, plan, year=2025)
    assert summary.to_json()["encodings"] == {str(path): "gb18030"}
    assert f"encoding: {path}: read as gb18030 (detected)" in summary.lines()


def test_clear_single_byte_and_utf16_files_are_read_and_named(tmp_path):
    russian = ("# Заметки\n\nВопрос: что такое варп?\nОтвет: 32 потока, которые выполняются вместе.\n" * 3)
    reading = read_file(_write(tmp_path, "ru.md", russian.encode("cp1251")))
    assert (reading.text, reading.encoding, reading.sure) == (russian, "cp1251", True)
    notepad = _write(tmp_path, "notepad.md", "\ufeff## 什么是 NVLink？\nGPU 之间的高速互连。\n".encode("utf-16-le"))
    assert read_text(notepad) == ("## 什么是 NVLink？\nGPU 之间的高速互连。\n", "utf-16")


def test_a_chosen_encoding_that_does_not_fit_is_reported_and_can_be_chosen_again(tmp_path):
    path = _write(tmp_path, "notizen.md", LATIN.encode("latin-1"))
    plan = plan_import([path], encodings={path: "ascii"})
    assert plan.files == [] and plan.unclear[path][:2] == ["ascii", "cp1252"]
    assert plan.problems == [f"{path}: skipped: not ascii text (ordinal not in range(128) at byte 10); "
                             "choose another encoding"]
    guessed = plan_import([path], guess=True)
    assert (guessed.encodings[path].how, guessed.encodings[path].name) == ("guessed", "cp1252")
    assert guessed.encodings[path].sample == "# Notizen über GPUs"
    chosen = plan_import([path], encodings={path: "latin-1"})
    assert (chosen.encodings[path].how, chosen.encodings[path].name) == ("chosen", "latin-1")
    assert "cp1252" in chosen.encodings[path].candidates


def test_cli_refuses_an_unclear_file_then_imports_it_with_encoding(tmp_path, capsys, studio_home):
    path = _write(tmp_path, "notizen.md", LATIN.encode("latin-1"))
    assert app.main(["import", "notes", str(path)]) == 2
    out = capsys.readouterr().out
    assert "notes: 0" in out and "--encoding NAME" in out
    assert app.main(["import", "notes", str(path), "--encoding", "latin-1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["cards"], result["encodings"]) == (1, {str(path): "latin-1"})
    from studio.core.collection import Collection

    col = Collection.open()
    try:
        with col.db.session() as s:
            (question,) = [c.q_en for c in s.query(Card).filter(Card.source == "imported")]
    finally:
        col.close()
    assert question == "Was bedeutet naïve Speicherzugriff für Müllers Kernel?"
    assert app.main(["import", "notes", str(path), "--encoding", "no-such-codec"]) == 2
    assert "unknown encoding 'no-such-codec'" in capsys.readouterr().err
