"""The import dialog lists the duplicates the chosen policy decides, an earlier "skip" it reopens included."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from studio.core.collection import utcnow
from studio.core.models import Card
from studio.ui.import_dialog import ImportDialog
from tests.conftest import drain


def _user_card(col) -> int:
    now = utcnow()
    with col.db.session() as s, s.begin():
        card = Card(key="user:nvlink", source="user", q_en="What is NVLink?", a_en="Something NVIDIA makes",
                    created_at=now, modified_at=now, due=now + timedelta(days=9), fsrs_state=2)
        s.add(card)
        s.flush()
        return card.id


def _answer(col, card_id: int) -> str:
    with col.db.session() as s:
        return s.scalar(select(Card.a_en).where(Card.id == card_id))


def test_keep_newest_after_an_earlier_skip_is_shown_before_it_replaces_anything(studio_app, qtbot, tmp_path):
    col = studio_app.tasks.collection
    card_id = _user_card(col)
    deck = tmp_path / "deck.csv"
    deck.write_text("What is NVLink?,A 900 GB/s link\nWhat is NCCL?,Collectives\n", encoding="utf-8")
    dialog = ImportDialog(studio_app.window.ctx, "anki")
    qtbot.addWidget(dialog)
    dialog.path.setText(str(deck))
    dialog.duplicates.setCurrentIndex(dialog.duplicates.findData("skip"))
    dialog.read()
    drain(qtbot, studio_app)
    (dup,) = dialog.duplicate_items()
    assert dup.child(0).text(0) == (f"With this choice: not imported; card #{card_id} in your collection "
                                    "stays as it is.")
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert _answer(col, card_id) == "Something NVIDIA makes"

    dialog.duplicates.setCurrentIndex(dialog.duplicates.findData("keep_both"))
    dialog.read()  # the earlier decision stands for keep-both and skip: nothing listed, nothing changes
    drain(qtbot, studio_app)
    assert dialog.duplicate_items() == []
    dialog.duplicates.setCurrentIndex(dialog.duplicates.findData("keep_newest"))
    (dup,) = dialog.duplicate_items()  # keep-newest decides it again: listed, with what it will do
    assert (dup.text(0), dup.text(1)) == ("What is NVLink?", f"line 1, card #{card_id} in your collection")
    assert dup.child(0).text(0) == (
        f"With this choice: line 1 replaces the text of card #{card_id} in your collection (its scheduling is "
        "kept). An earlier import left out line 1; this choice decides again.")
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert _answer(col, card_id) == "A 900 GB/s link"
    assert "1 questions found twice: kept the newest." in dialog.status.text()
