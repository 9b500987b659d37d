"""The import dialog: preview with tick boxes, link/copy, year, history choice, problems, summary."""

from __future__ import annotations

from PySide6.QtCore import Qt

from studio.core.interviews import list_interviews
from studio.ui.import_dialog import ImportDialog
from tests.conftest import drain

NOTE = """## 为什么 decode 是访存瓶颈？
每个 token 都要读一遍权重。

Q: What is NVLink?
A: A GPU-to-GPU interconnect.

| 日期 | 公司 | 结果 |
| --- | --- | --- |
| 3/4 19:30 | 星河科技 | 二面 |
| 3/9 | 远山智能 |
"""


def _notes(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "gpu.md").write_text(NOTE, encoding="utf-8")
    (folder / "blob.md").write_bytes(b"\x00\x01" * 64)
    return folder


def _dialog(studio_app, qtbot, mode, path):
    dialog = ImportDialog(studio_app.window.ctx, mode)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(path))
    dialog.read()
    drain(qtbot, studio_app)
    return dialog


def test_notes_preview_untick_year_and_summary(studio_app, qtbot, tmp_path):
    dialog = _dialog(studio_app, qtbot, "notes", _notes(tmp_path))
    cards = dialog.card_items()
    assert [c.text(1) for c in cards] == ["gpu.md:1", "gpu.md:4"]
    assert [i.text(0) for i in dialog.interview_items()] == ["3/4 19:30  星河科技", "3/9  远山智能"]
    problems = [dialog.problems.item(i).text() for i in range(dialog.problems.count())]
    assert any("blob.md: skipped: binary file" in p for p in problems)
    assert any("gpu.md:10:" in p and "missing cells" in p for p in problems)
    cards[1].setCheckState(0, Qt.Unchecked)
    dialog.interview_items()[1].setCheckState(0, Qt.Unchecked)
    dialog.year.setValue(2024)
    assert dialog.import_button.isEnabled()
    dialog.import_button.click()
    drain(qtbot, studio_app)
    summary = dialog.summary
    assert (summary.notes, summary.cards, summary.interviews) == (1, 1, 1)
    assert "1 new cards" in dialog.status.text()
    assert dialog.progress.value() == dialog.progress.maximum()
    (iv,) = list_interviews(studio_app.tasks.collection)
    assert iv.company == "星河科技" and iv.starts_at.year == 2024


def test_anki_csv_with_history_choice_and_bad_rows(studio_app, qtbot, tmp_path):
    deck = tmp_path / "deck.csv"
    deck.write_text("#separator:Comma\nWhat is a warp?,32 threads\nbroken\tline\nWhat is an SM?,A multiprocessor\n",
                    encoding="utf-8")
    dialog = _dialog(studio_app, qtbot, "anki", deck)
    assert len(dialog.card_items()) == 2
    assert dialog.problems.item(0).text().startswith(f"{deck}:3:")
    dialog.fresh.setChecked(True)
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert dialog.summary.cards == 2
    dialog.read()
    drain(qtbot, studio_app)
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert (dialog.summary.cards, dialog.summary.cards_updated) == (0, 0)


def test_corrupt_package_leaves_nothing_to_import(studio_app, qtbot, tmp_path):
    bad = tmp_path / "bad.apkg"
    bad.write_bytes(b"PK\x03\x04 not really")
    dialog = _dialog(studio_app, qtbot, "anki", bad)
    assert not dialog.import_button.isEnabled()
    assert "nothing imported" in dialog.problems.item(0).text()
    assert "Nothing to import" in dialog.status.text()


def test_main_window_file_menu_has_the_import_actions(studio_app):
    file_menu = studio_app.window.menuBar().actions()[0].menu()
    labels = [a.text() for a in file_menu.actions()]
    assert "Import notes…" in labels and "Import Anki deck…" in labels


def test_dialog_renders(studio_app, qtbot, tmp_path):
    dialog = _dialog(studio_app, qtbot, "notes", _notes(tmp_path))
    dialog.show()
    qtbot.waitExposed(dialog)
    out = tmp_path / "import_dialog.png"
    assert dialog.grab().save(str(out)) and out.stat().st_size > 5000
