"""Drill statements follow the UI language: Chinese (statement.zh.md) under zh_CN, English
under en, and English for a drill that has no Chinese statement."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from tests.conftest import drain

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def _pack_without_chinese(tmp_path) -> str:
    """A drill-folder pack holding a copy of softmax without statement.zh.md; its drill id."""
    from studio.drills import packs

    root = tmp_path / "plain"
    shutil.copytree(KERNELS / "softmax", root / "softmax", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "softmax" / "statement.zh.md").unlink()
    packs.add_pack(root)
    return "plain/softmax"


def _open(studio_app, qtbot, drill_id):
    pane = studio_app.window.show_pane("drills")
    drain(qtbot, studio_app)
    qtbot.waitUntil(lambda: any(pane.list.item(r).data(Qt.UserRole) == drill_id for r in range(pane.list.count())),
                    timeout=10_000)
    pane.select_drill(drill_id)
    drain(qtbot, studio_app)
    assert pane.drill.id == drill_id
    return pane


def _item_text(pane, drill_id) -> str:
    return next(pane.list.item(r).text() for r in range(pane.list.count())
                if pane.list.item(r).data(Qt.UserRole) == drill_id)


def test_statement_and_title_follow_the_ui_language(studio_app, qtbot, tmp_path):
    plain = _pack_without_chinese(tmp_path)
    studio_app.set_language("zh_CN")
    drain(qtbot, studio_app)

    pane = _open(studio_app, qtbot, "softmax")
    text = pane.statement.toPlainText()
    assert "逐行 softmax" in text and "难度" in text and "规则" in text
    assert "Row-wise softmax" not in text and "Rules" not in text
    assert _item_text(pane, "softmax").startswith("逐行 softmax\n") and "中等" in _item_text(pane, "softmax")
    pane.select_drill("matmul")
    drain(qtbot, studio_app)
    assert "矩阵乘法" in pane.statement.toPlainText() and "tl.dot" in pane.statement.toPlainText()

    pane.select_drill(plain)             # no statement.zh.md: English, even under Chinese
    drain(qtbot, studio_app)
    text = pane.statement.toPlainText()
    assert "Row-wise softmax" in text and "Rules" in text and "逐行" not in text
    assert _item_text(pane, plain).startswith("Row-wise softmax\n")

    studio_app.set_language("en")
    drain(qtbot, studio_app)
    pane = _open(studio_app, qtbot, "softmax")
    text = pane.statement.toPlainText()
    assert "Row-wise softmax" in text and "Rules" in text and "逐行" not in text
    assert _item_text(pane, "softmax").startswith("Row-wise softmax\n")


def test_quick_open_names_drills_in_the_ui_language(studio_app):
    from studio.ui.quick_open import load_drills, quick_results

    drills = load_drills()
    levels = {"easy": "简单", "medium": "中等", "hard": "困难"}
    rows = studio_app.tasks.call(lambda col: quick_results(col, "softmax", "zh", drills, levels))
    drill_rows = {target: (label, snippet) for kind, target, label, snippet in rows if kind == "drill"}
    assert drill_rows["softmax"] == ("逐行 softmax", "中等")
    by_chinese = studio_app.tasks.call(lambda col: quick_results(col, "矩阵乘法", "zh", drills, levels))
    assert ("drill", "matmul") in {(kind, target) for kind, target, _, _ in by_chinese}
    rows = studio_app.tasks.call(lambda col: quick_results(col, "softmax", "en", drills))
    assert ("drill", "softmax", "Row-wise softmax", "medium") in rows
