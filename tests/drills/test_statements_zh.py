"""Drill statements in Chinese (statement.zh.md): every shipped drill has one that says what
the English one says, and the catalogue and the CLI pick the language asked for."""

from __future__ import annotations

import re
import shutil
from collections import Counter

import pytest

from studio.drills.catalog import get_drill, load_catalog, load_drill

from .conftest import KERNELS

SHIPPED = sorted(p.name for p in KERNELS.iterdir() if (p / "drill.yaml").is_file())
LEVELS_ZH = {"easy": "简单", "medium": "中等", "hard": "困难"}
_HAN = re.compile(r"[\u4e00-\u9fff]")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
_INLINE = re.compile(r"`([^`]+)`")  # a span may wrap onto the next line
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")


def parts(markdown: str) -> tuple[list[str], Counter, set[str]]:
    """(code lines: fenced and 4-space indented blocks, in order; inline code spans; the
    numbers written in the prose)."""
    fenced = _FENCE.findall(markdown)
    prose = _FENCE.sub("", markdown)
    blocks = [line.rstrip() for block in fenced for line in block.splitlines()]
    indented = [line.rstrip() for line in prose.splitlines() if line.startswith("    ") and line.strip()]
    prose = "\n".join(line for line in prose.splitlines() if not line.startswith("    "))
    spans = Counter(" ".join(span.split()) for span in _INLINE.findall(prose))
    numbers = set(_NUMBER.findall(_INLINE.sub(" ", prose)))
    return blocks + indented, spans, numbers


def test_every_drill_folder_is_found():
    assert len(SHIPPED) >= 17 and {"softmax", "matmul", "histogram"} <= set(SHIPPED)


@pytest.mark.parametrize("drill_id", SHIPPED)
def test_shipped_drill_has_a_chinese_statement(drill_id):
    drill = get_drill(drill_id)
    zh = drill.statements.get("zh", "")
    assert (drill.folder / "statement.zh.md").is_file()
    assert len(_HAN.findall(zh)) > 100, "statement.zh.md holds too little Chinese"
    assert zh.lstrip().startswith("# ") and _HAN.search(zh.splitlines()[0])
    assert f"{drill.time_limit_min} 分钟" in zh
    assert LEVELS_ZH[drill.difficulty] in zh.splitlines()[2]
    assert drill.statement_for("zh") == zh and drill.statement_for("zh_CN") == zh
    assert drill.statement_for("en") == drill.statement != zh


@pytest.mark.parametrize("drill_id", SHIPPED)
def test_chinese_statement_keeps_the_code_identifiers_and_numbers(drill_id):
    drill = get_drill(drill_id)
    en_code, en_spans, en_numbers = parts(drill.statement)
    zh_code, zh_spans, zh_numbers = parts(drill.statements["zh"])
    assert zh_code == en_code, "formulas and code blocks differ"
    assert zh_spans == en_spans, (f"inline code only in English: {sorted((en_spans - zh_spans).elements())}; "
                                  f"only in Chinese: {sorted((zh_spans - en_spans).elements())}")
    assert zh_numbers == en_numbers, (f"numbers only in English: {sorted(en_numbers - zh_numbers)}; "
                                      f"only in Chinese: {sorted(zh_numbers - en_numbers)}")


def test_parts_sees_a_changed_formula_span_and_number():
    en = "Sum `x[i]` over 127 rows:\n\n    y = sum(x)\n"
    assert parts(en) == (["    y = sum(x)"], Counter({"x[i]": 1}), {"127"})
    assert parts("对 127 行求 `x[i]` 的和：\n\n    y = sum(x)\n") == parts(en)
    assert parts("对 128 行求 `x[i]` 的和：\n\n    y = sum(x)\n")[2] != parts(en)[2]
    assert parts("对 127 行求 `x[j]` 的和：\n\n    y = sum(x)\n")[1] != parts(en)[1]
    assert parts("对 127 行求 `x[i]` 的和：\n\n    y = sum(x) + 1\n")[0] != parts(en)[0]


def test_titles_follow_the_language():
    drill = get_drill("softmax")
    assert drill.title_for("en") == drill.title == "Row-wise softmax"
    assert drill.title_for("zh_CN") == drill.statements["zh"].splitlines()[0][2:].strip()
    assert _HAN.search(drill.title_for("zh"))


def test_a_drill_without_a_translation_falls_back_to_english(kernels_copy):
    (kernels_copy / "softmax" / "statement.zh.md").unlink()
    drill = load_drill(kernels_copy / "softmax")
    assert drill.ok and "zh" not in drill.statements
    assert drill.statement_for("zh") == drill.statement == drill.statement_for("en")
    assert drill.title_for("zh") == drill.title
    assert drill.summary("zh")["statement_languages"] == ["en"]


def test_an_empty_translation_falls_back_to_english(kernels_copy):
    (kernels_copy / "softmax" / "statement.zh.md").write_text("\n  \n", encoding="utf-8")
    drill = load_drill(kernels_copy / "softmax")
    assert drill.ok and drill.statement_for("zh") == drill.statement
    assert drill.title_for("zh") == drill.title


def test_a_translation_that_is_not_utf8_breaks_only_its_drill(kernels_copy):
    (kernels_copy / "softmax" / "statement.zh.md").write_bytes("# 逐行 softmax".encode("gbk"))
    drills = {d.id: d for d in load_catalog(kernels_copy)}
    assert "statement.zh.md is not UTF-8 text" in drills["softmax"].error
    assert drills["vector_add"].ok


def test_files_may_name_another_translation_file(kernels_copy):
    folder = kernels_copy / "softmax"
    shutil.move(folder / "statement.zh.md", folder / "题目.md")
    text = (folder / "drill.yaml").read_text(encoding="utf-8")
    (folder / "drill.yaml").write_text(text + "files: {statement_zh: 题目.md}\n", encoding="utf-8")
    drill = load_drill(folder)
    assert drill.ok and _HAN.search(drill.statement_for("zh"))


def test_cli_show_and_list_take_a_language(capsys):
    from studio.drills.cli import main

    assert main(["show", "softmax", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(get_drill("softmax").statements["zh"].rstrip())
    assert "entry point:     softmax(x: Tensor) -> Tensor" in out
    assert main(["show", "softmax"]) == 0
    assert capsys.readouterr().out.startswith("# Row-wise softmax")
    assert main(["list", "--lang", "zh"]) == 0
    listing = capsys.readouterr().out
    assert get_drill("matmul").title_for("zh") in listing and "Row-wise softmax" not in listing
