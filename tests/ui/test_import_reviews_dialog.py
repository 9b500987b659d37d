"""File → Import Anki deck… → "Reviews done in Anki": reviews made on the phone come back (issue #28).

The file is built as tests/core/test_anki_roundtrip.py builds one: export from this app, import
into a fresh collection of Anki's own library, answer there through its scheduler, export with
scheduling.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("anki.collection")

from studio.core.exporters import export_cards  # noqa: E402
from studio.ui.import_dialog import ImportDialog  # noqa: E402
from tests.conftest import drain  # noqa: E402
from tests.core.test_anki_roundtrip import (CODE_Q, _anki, _answer_in_anki, _card_id, _export_from_anki,  # noqa: E402
                                            _import_into_anki, _log, _seed, _state)


def _problems(dialog) -> list[str]:
    return [dialog.problems.item(i).text() for i in range(dialog.problems.count())]


def _phone_file(studio_app, tmp_path: Path) -> tuple[Path, int]:
    """Our seeded cards exported, reviewed in Anki, exported back with scheduling."""
    studio_app.tasks.call(lambda col: _seed(col, tmp_path))
    out = tmp_path / "deck.apkg"
    studio_app.tasks.call(lambda col: export_cards(col, "apkg", out, query='"Out-of-range lanes must not read"'))
    acol = _anki(tmp_path / "anki")
    try:
        _import_into_anki(acol, out)
        answered = _answer_in_anki(acol, 3)
        back = _export_from_anki(acol, tmp_path / "phone.apkg")
    finally:
        acol.close()
    return back, answered


def _dialog(studio_app, qtbot, mode: str = "reviews") -> ImportDialog:
    dialog = ImportDialog(studio_app.window.ctx, mode)
    qtbot.addWidget(dialog)
    return dialog


def test_reviews_come_back_in_the_background_and_the_counts_refresh(studio_app, qtbot, tmp_path):
    back, answered = _phone_file(studio_app, tmp_path)
    assert answered >= 2
    window = studio_app.window
    drain(qtbot, studio_app)
    dialog = _dialog(studio_app, qtbot, "anki")
    assert dialog.read_button.isVisibleTo(dialog) and dialog.import_button.text() == "Import"
    dialog.what_reviews.setChecked(True)  # the way in from File → Import Anki deck…
    assert dialog.mode == "reviews" and not dialog.read_button.isVisibleTo(dialog)
    assert dialog.import_button.text() == "Bring back reviews" and not dialog.import_button.isEnabled()
    assert not dialog.keep.isVisibleTo(dialog) and not dialog.duplicates.isVisibleTo(dialog)
    dialog.path.setText(str(back))
    assert dialog.import_button.isEnabled()
    window.due_label.setText("stale")
    changed: list[str] = []
    studio_app.window.ctx.bus.data_changed.connect(changed.append)
    dialog.import_button.click()
    # The import runs on the worker: the dialog is busy and answers later.
    assert not dialog.import_button.isEnabled() and dialog.status.text() == "Reading the reviews…"
    drain(qtbot, studio_app)
    summary = dialog.summary
    assert summary.completed and summary.reviews_added == answered and _problems(dialog) == []
    code_id = studio_app.tasks.call(lambda col: _card_id(col, CODE_Q))
    assert len(studio_app.tasks.call(_log)[code_id]) == answered
    (item,) = dialog.review_items()
    assert item.text(0) == CODE_Q and item.text(1) == f"+{answered}" and item.data(0, 256) == code_id
    assert dialog.unmatched_items() == []
    assert dialog.status.text() == (f"Reviews that came back: {answered} · cards that gained reviews: 1 · "
                                    "already here: 0.")
    assert {"reviews", "cards"} <= set(changed)
    # The status bar's due counts were read again (the main window listens to data_changed).
    qtbot.waitUntil(lambda: window.due_label.text().startswith("Due: new "), timeout=10000)
    drain(qtbot, studio_app)
    # The same file again adds nothing and says so; nothing is announced as changed.
    changed.clear()
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert dialog.summary.completed and dialog.summary.reviews_added == 0
    assert dialog.summary.already_here == answered and dialog.review_items() == []
    assert "Nothing new" in dialog.status.text() and changed == []


def test_bad_files_change_nothing_and_say_why(studio_app, qtbot, tmp_path):
    back, _ = _phone_file(studio_app, tmp_path)
    other_dir = tmp_path / "other"
    acol = _anki(other_dir)  # a deck from another tool: its GUIDs match nothing here
    try:
        note = acol.new_note(acol.models.by_name("Basic"))
        note["Front"], note["Back"] = "capital of France", "Paris"
        acol.add_note(note, acol.decks.id("Geography"))
        guid = note.guid
        _answer_in_anki(acol, 1)
        other = _export_from_anki(acol, tmp_path / "other.apkg")
    finally:
        acol.close()
    truncated = tmp_path / "truncated.apkg"
    truncated.write_bytes(back.read_bytes()[: back.stat().st_size // 2])
    state, log = studio_app.tasks.call(_state), studio_app.tasks.call(_log)
    dialog = _dialog(studio_app, qtbot)
    assert dialog.mode == "reviews" and dialog.what_reviews.isChecked()
    changed: list[str] = []
    studio_app.window.ctx.bus.data_changed.connect(changed.append)

    dialog.path.setText(str(other))
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert not dialog.summary.completed
    (problem,) = _problems(dialog)
    assert "none of its 1 notes came from this app" in problem
    assert dialog.status.text() == "Nothing was imported and nothing changed; the problems below say why."
    (unmatched,) = dialog.unmatched_items()
    assert unmatched.text(0) == f"GUID {guid}"

    for bad, why in ((truncated, "nothing imported"), (tmp_path / "missing.apkg", "no such file")):
        dialog.path.setText(str(bad))
        dialog.import_button.click()
        drain(qtbot, studio_app)
        assert not dialog.summary.completed and why in _problems(dialog)[0], _problems(dialog)
        assert dialog.import_button.isEnabled()  # ready for another file
    assert changed == []
    assert studio_app.tasks.call(_state) == state and studio_app.tasks.call(_log) == log
