"""The import dialog's Anki mode asks about a CSV/TSV's encoding as the notes mode does (issue #16)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from sqlalchemy import select

from studio.core.models import Card
from studio.ui.import_dialog import ImportDialog
from tests.conftest import drain

GERMAN = ("Was heißt naïve Speicherzugriff?\tJeder Thread lädt einzeln; die Größe wächst.\n"
          "Was ist ein Warp?\t32 Threads, die gemeinsam ausgeführt werden.\n")


def test_anki_tsv_encoding_is_shown_guessed_chosen_and_named_in_the_summary(studio_app, qtbot, tmp_path):
    deck = tmp_path / "karten.tsv"
    deck.write_bytes(GERMAN.encode("cp1252"))
    dialog = ImportDialog(studio_app.window.ctx, "anki")
    qtbot.addWidget(dialog)
    dialog.path.setText(str(deck))
    dialog.read()
    drain(qtbot, studio_app)
    (item,) = dialog.encoding_items()
    assert item.text(0) == "karten.tsv: read as cp1252 (a guess, not sure)"
    assert item.child(0).text(0) == "Sample: Was heißt naïve Speicherzugriff?\tJeder Thread lädt einzeln; die Größe wächst."
    assert "check their sample lines" in dialog.status.text()
    warp = next(i for i in dialog.card_items() if i.text(0) == "Was ist ein Warp?")
    warp.setCheckState(0, Qt.Unchecked)
    combo = dialog.encoding_combo(deck)
    assert combo.currentText() == "cp1252" and combo.count() > 1
    combo.setCurrentText("cp1250")  # read again in the user's choice, keeping the untick
    drain(qtbot, studio_app)
    assert dialog.encoding_items()[0].text(0) == "karten.tsv: read as cp1250 (your choice)"
    questions = {i.text(0): i for i in dialog.card_items()}
    assert "Was heißt naďve Speicherzugriff?" in questions
    assert questions["Was ist ein Warp?"].checkState(0) == Qt.Unchecked
    dialog.encoding_combo(deck).setCurrentText("cp1252")
    drain(qtbot, studio_app)
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert dialog.summary.to_json()["encodings"] == {str(deck): "cp1252"}
    assert "Read as: karten.tsv: cp1252." in dialog.status.text()
    with studio_app.tasks.collection.db.session() as s:
        questions = list(s.scalars(select(Card.q_en).where(Card.source == "imported")))
    assert questions == ["Was heißt naïve Speicherzugriff?"]
