"""The import dialog: preview with tick boxes, link/copy, year, history choice, problems, summary."""

from __future__ import annotations

import os
from datetime import datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt
from sqlalchemy import select

from studio.core.interviews import list_interviews
from studio.core.models import Card
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
    note = folder / "gpu.md"
    note.write_text(NOTE, encoding="utf-8")
    stamp = datetime(2024, 5, 1, 12, tzinfo=ZoneInfo("Asia/Shanghai")).timestamp()
    os.utime(note, (stamp, stamp))
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
    assert [i.text(0) for i in dialog.interview_items()] == ["3/4 19:30 (2024)  星河科技", "3/9 (2024)  远山智能"]
    (assumed,) = dialog.assumption_items()
    assert assumed.text(0) == "gpu.md: 2 dates without a year: 2024, placed near the file's modification time 2024-05-01"
    problems = [dialog.problems.item(i).text() for i in range(dialog.problems.count())]
    assert any("blob.md: skipped: binary file" in p for p in problems)
    assert any("gpu.md:10:" in p and "missing cells" in p for p in problems)
    cards[1].setCheckState(0, Qt.Unchecked)
    dialog.interview_items()[1].setCheckState(0, Qt.Unchecked)
    assert not dialog.year.isEnabled()
    dialog.use_year.setChecked(True)
    dialog.year.setValue(2023)
    assert dialog.interview_items()[0].text(0) == "3/4 19:30 (2023)  星河科技"
    assert assumed.text(0) == "gpu.md: 2 dates without a year: 2023, the year chosen above"
    assert dialog.import_button.isEnabled()
    dialog.import_button.click()
    drain(qtbot, studio_app)
    summary = dialog.summary
    assert (summary.notes, summary.cards, summary.interviews) == (1, 1, 1)
    assert "1 new cards" in dialog.status.text()
    assert dialog.progress.value() == dialog.progress.maximum()
    (iv,) = list_interviews(studio_app.tasks.collection)
    assert iv.company == "星河科技" and iv.starts_at.year == 2023


LATIN = "# Notizen über GPUs\n\nQ: Was heißt naïve Speicherzugriff?\nA: Jeder Thread lädt einzeln; die Größe wächst.\n"
TWICE = "Q: What is NVLink?\nA: A GPU-to-GPU interconnect.\n\nQ: What is NVLink?\nA: A 900 GB/s link.\n"


def _mixed(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "notizen.md").write_bytes(LATIN.encode("latin-1"))
    (folder / "gbk.md").write_bytes("## 什么是 HBM？\n高带宽显存。\n".encode("gb18030"))
    (folder / "twice.md").write_text(TWICE, encoding="utf-8")
    return folder


def test_preview_shows_encodings_and_a_changed_encoding_reads_again(studio_app, qtbot, tmp_path):
    folder = _mixed(tmp_path)
    dialog = _dialog(studio_app, qtbot, "notes", folder)
    texts = [item.text(0) for item in dialog.encoding_items()]
    assert texts == ["gbk.md: read as gb18030 (detected)", "notizen.md: read as cp1252 (a guess, not sure)"]
    assert dialog.encoding_items()[1].child(0).text(0) == "Sample: # Notizen über GPUs"
    assert "check their sample lines" in dialog.status.text()
    combo = dialog.encoding_combo(folder / "notizen.md")
    assert combo.currentText() == "cp1252" and combo.count() > 1
    questions = {item.text(0) for item in dialog.card_items()}
    assert "Was heißt naïve Speicherzugriff?" in questions
    hbm = next(item for item in dialog.card_items() if item.text(0) == "什么是 HBM？")
    hbm.setCheckState(0, Qt.Unchecked)
    combo.setCurrentText("cp1250")  # the user picks another one: the files are read again
    drain(qtbot, studio_app)
    assert dialog.encodings == {folder / "notizen.md": "cp1250"}
    assert dialog.encoding_items()[1].text(0) == "notizen.md: read as cp1250 (your choice)"
    questions = {item.text(0): item for item in dialog.card_items()}
    assert "Was heißt naďve Speicherzugriff?" in questions  # what cp1250 makes of it, for all to see
    assert questions["什么是 HBM？"].checkState(0) == Qt.Unchecked  # the untick survived the re-read


def test_preview_lists_duplicates_and_the_choice_applies(studio_app, qtbot, tmp_path):
    dialog = _dialog(studio_app, qtbot, "notes", _mixed(tmp_path))
    (dup,) = dialog.duplicate_items()
    assert (dup.text(0), dup.text(1)) == ("What is NVLink?", "twice.md:1, twice.md:4")
    dialog.duplicates.setCurrentIndex(dialog.duplicates.findData("keep_newest"))
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert dialog.summary.duplicate_policy == "keep_newest"
    assert "1 questions found twice: kept the newest." in dialog.status.text()
    col = studio_app.tasks.collection
    with col.db.session() as s:
        answers = [c.a_en for c in s.scalars(select(Card).where(Card.q_en == "What is NVLink?",
                                                                Card.source == "imported"))]
    assert answers == ["A 900 GB/s link."]
    dialog.read()  # the collection's card is now a re-import, not a duplicate
    drain(qtbot, studio_app)
    assert dialog.duplicate_items() == []


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


def test_anki_duplicates_are_listed_and_the_choice_applies(studio_app, qtbot, tmp_path):
    deck = tmp_path / "deck.csv"
    deck.write_text("#separator:Comma\nWhat is a warp?,32 threads\nWhat is an SM?,A multiprocessor\n"
                    "What is a warp?,32 threads that issue together\n", encoding="utf-8")
    dialog = _dialog(studio_app, qtbot, "anki", deck)
    (dup,) = dialog.duplicate_items()
    assert dup.text(0) == "What is a warp?"
    assert not any("twice" in dialog.problems.item(i).text() for i in range(dialog.problems.count()))
    dialog.duplicates.setCurrentIndex(dialog.duplicates.findData("keep_newest"))
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert dialog.summary.duplicate_policy == "keep_newest"
    assert "1 questions found twice: kept the newest." in dialog.status.text()
    col = studio_app.tasks.collection
    with col.db.session() as s:
        answers = [c.a_en for c in s.scalars(select(Card).where(Card.q_en == "What is a warp?"))]
    assert answers == ["32 threads that issue together"]
