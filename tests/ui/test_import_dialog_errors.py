"""The import dialog's summary: a failed write is one plain sentence saying where, and the
encoding each file was read in is named (issue #16, found while auditing it: a read-only
database showed SQLAlchemy's text with the SQL statement and its parameters)."""

from __future__ import annotations

import errno
import sqlite3

from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from studio.core.importers import notes_import
from studio.core.models import Card
from studio.ui.import_dialog import ImportDialog
from tests.conftest import drain


def _previewed(studio_app, qtbot, path):
    dialog = ImportDialog(studio_app.window.ctx, "notes")
    qtbot.addWidget(dialog)
    dialog.path.setText(str(path))
    dialog.read()
    drain(qtbot, studio_app)
    assert dialog.import_button.isEnabled()
    return dialog


def _cards(studio_app) -> int:
    with studio_app.tasks.collection.db.session() as s:
        return s.scalar(select(func.count(Card.id)))


def test_a_read_only_database_is_one_sentence_with_the_file(studio_app, qtbot, tmp_path, monkeypatch):
    note = tmp_path / "n.md"
    note.write_text("Q: What is NVLink?\nA: A link.\n", encoding="utf-8")
    dialog = _previewed(studio_app, qtbot, note)
    before = _cards(studio_app)

    def read_only(*_args, **_kwargs):
        raise OperationalError("INSERT INTO notes (path, source) VALUES (?, ?)", ("/x.md", "imported"),
                               sqlite3.OperationalError("attempt to write a readonly database"))

    monkeypatch.setattr(notes_import, "apply_import", read_only)
    dialog.apply()
    drain(qtbot, studio_app)
    text = dialog.status.text()
    assert text.startswith("Could not import: The database cannot be written")
    assert str(studio_app.tasks.collection.db.path) in text
    assert "INSERT" not in text and "[SQL" not in text and "sqlalche.me" not in text
    assert _cards(studio_app) == before and dialog.read_button.isEnabled()


def test_a_full_disk_names_the_file_it_could_not_write(studio_app, qtbot, tmp_path, monkeypatch):
    note = tmp_path / "n.md"
    note.write_text("Q: What is HBM?\nA: Stacked DRAM.\n", encoding="utf-8")
    dialog = _previewed(studio_app, qtbot, note)

    def disk_full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "/data/notes/n.md")

    monkeypatch.setattr(notes_import, "apply_import", disk_full)
    dialog.apply()
    drain(qtbot, studio_app)
    text = dialog.status.text()
    assert text.startswith("Could not import: The disk is full") and "(/data/notes/n.md)" in text
    assert "Errno" not in text


def test_the_summary_names_the_encoding_a_file_was_read_in(studio_app, qtbot, tmp_path):
    note = tmp_path / "notizen.md"
    note.write_bytes("# Notizen über GPUs\n\nQ: Was ist ein Warp?\nA: 32 Fäden, die gemeinsam ausgeführt "
                     "werden; Größe über Schritte.\n".encode("latin-1"))
    dialog = _previewed(studio_app, qtbot, note)
    dialog.apply()
    drain(qtbot, studio_app)
    text = dialog.status.text()
    assert text.startswith("Imported: 1 notes, 1 new cards")
    read_as = dialog.summary.encodings[str(note)].name
    assert read_as != "gb18030" and f"Read as: notizen.md: {read_as}." in text
