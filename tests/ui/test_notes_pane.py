"""The Notes pane: node notes in the UI language, user notes, links, find, copy, watcher."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication

from tests.conftest import drain

NOTE = """---
title: 分页 KV cache
date: 2025-02-01
tags: [推理, kv]
---
# 概述

正文提到 [[别的笔记]] 和 [外链](https://example.com)。

## 细节

```python
blocks = allocate(n)
```
"""


def _pane(studio_app, qtbot):
    pane = studio_app.window.show_pane("notes")
    drain(qtbot, studio_app)
    return pane


def _open(studio_app, qtbot, pane, target):
    pane.show_target(target)
    drain(qtbot, studio_app)


def test_node_note_renders_with_outline_and_review_button(studio_app, qtbot):
    pane = _pane(studio_app, qtbot)
    _open(studio_app, qtbot, pane, "pytorch.amp")
    assert "autocast" in pane.browser.toPlainText().lower()
    assert pane.outline.count() > 2
    assert pane.current_path.name == "pytorch.amp.en.md"
    assert not pane.review_button.isHidden()


def test_note_follows_ui_language(studio_app, qtbot, monkeypatch):
    pane = _pane(studio_app, qtbot)
    monkeypatch.setattr(studio_app.window.ctx, "language", "zh_CN")
    _open(studio_app, qtbot, pane, "pytorch.amp")
    assert pane.current_path.name == "pytorch.amp.zh.md"
    assert "混合精度" in pane.browser.toPlainText()


def test_user_note_header_backlinks_copy_and_find(studio_app, qtbot, tmp_path):
    root = tmp_path / "notes"
    root.mkdir()
    (root / "kv.md").write_text(NOTE, encoding="utf-8")
    (root / "别的笔记.md").write_text("# 别的笔记\n\n回到 [[分页 KV cache]]。\n", encoding="utf-8")
    studio_app.window.roadmap.add_notes_folder(str(root))
    drain(qtbot, studio_app)
    pane = _pane(studio_app, qtbot)
    _open(studio_app, qtbot, pane, str(root / "kv.md"))
    assert "分页 KV cache" in pane.title.text()
    assert "2025-02-01" in pane.meta.text() and "推理" in pane.meta.text()
    assert [pane.outline.item(i).text().strip() for i in range(pane.outline.count())] == ["概述", "细节"]
    assert pane.backlinks.count() == 1 and pane.backlinks.item(0).text() == "别的笔记"
    pane._link(QUrl("copy:0"))
    assert QGuiApplication.clipboard().text() == "blocks = allocate(n)"
    pane.show_find()
    pane.find_edit.setText("allocate")
    assert pane.browser.textCursor().selectedText() == "allocate"
    pane.find_edit.setText("不存在的词")
    assert pane.find_status.text() == "Not found"
    pane._link(QUrl("note:别的笔记"))
    drain(qtbot, studio_app)
    drain(qtbot, studio_app)
    assert pane.current_path == root / "别的笔记.md"


def test_external_link_is_not_opened_while_rendering(studio_app, qtbot, tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr("studio.ui.panes.notes_pane.QDesktopServices.openUrl", lambda url: opened.append(url))
    note = tmp_path / "n.md"
    note.write_text(NOTE + '\n![远程](https://example.com/x.png)\n', encoding="utf-8")
    pane = _pane(studio_app, qtbot)
    _open(studio_app, qtbot, pane, str(note))
    assert opened == []
    pane._link(QUrl("https://example.com"))
    assert [u.toString() for u in opened] == ["https://example.com"]


def test_bad_files_give_messages(studio_app, qtbot, tmp_path):
    pane = _pane(studio_app, qtbot)
    binary = tmp_path / "bin.md"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    _open(studio_app, qtbot, pane, str(binary))
    assert "cannot be shown" in pane.browser.toPlainText() and "binary" in pane.browser.toPlainText()
    broken = tmp_path / "broken.md"
    broken.write_text("---\ntitle: [oops\n---\n# 标题\n\n```\nunclosed\n", encoding="utf-8")
    _open(studio_app, qtbot, pane, str(broken))
    assert "not valid YAML" in pane.problems.text() and "not closed" in pane.problems.text()
    assert "标题" in pane.browser.toPlainText()
    assert broken.read_text(encoding="utf-8").startswith("---\ntitle: [oops")
    _open(studio_app, qtbot, pane, "no.such.node")
    assert "no roadmap node" in pane.browser.toPlainText()


def test_watcher_rerenders_an_edited_note(studio_app, qtbot, tmp_path):
    note = tmp_path / "w.md"
    note.write_text("# 第一版\n", encoding="utf-8")
    pane = _pane(studio_app, qtbot)
    _open(studio_app, qtbot, pane, str(note))
    assert "第一版" in pane.browser.toPlainText()
    note.write_text("# 第二版\n\n新的内容\n", encoding="utf-8")
    qtbot.waitUntil(lambda: "第二版" in pane.browser.toPlainText(), timeout=8000)


def test_zoom_changes_font_size(studio_app, qtbot):
    pane = _pane(studio_app, qtbot)
    before = pane.browser.document().defaultFont().pointSizeF()
    pane.set_zoom(3)
    assert pane.browser.document().defaultFont().pointSizeF() > before
