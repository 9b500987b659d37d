"""A deck refused at a limit can be read again from the dialog with the limit raised; the dialog
names no command-line flag (issue #16 audit)."""

from __future__ import annotations

import itertools
import zipfile

from studio.core.importers.anki_limits import Limits
from studio.ui.import_dialog import ImportDialog
from tests.conftest import drain
from tests.core.importers.test_anki import make_apkg

FLAGS = ("--max-size", "--max-ratio", "--time-limit")


def _problems(dialog) -> list[str]:
    return [dialog.problems.item(i).text() for i in range(dialog.problems.count())]


def _dialog(studio_app, qtbot, path, limits: Limits | None = None) -> ImportDialog:
    dialog = ImportDialog(studio_app.window.ctx, "anki")
    qtbot.addWidget(dialog)
    if limits is not None:
        dialog.limits = limits
    dialog.path.setText(str(path))
    dialog.read()
    drain(qtbot, studio_app)
    return dialog


def _no_flags(dialog) -> None:
    shown = " ".join(_problems(dialog) + [dialog.status.text(), dialog.limit_label.text()])
    assert not any(flag in shown for flag in FLAGS), shown


def test_a_deck_over_the_size_limit_is_read_again_with_the_raised_limit(studio_app, qtbot, tmp_path):
    deck = make_apkg(tmp_path)
    dialog = _dialog(studio_app, qtbot, deck, Limits(max_entry_mb=8 / 1024))  # 8 KB: the deck is larger
    assert dialog.card_items() == [] and not dialog.import_button.isEnabled()
    assert dialog.limit_box.isVisibleTo(dialog)
    assert dialog.limit_label.text().startswith("The collection inside this deck expands past the limit of "
                                                "0.0078125 MB. If you trust it, read it again with a higher limit:")
    (problem,) = _problems(dialog)
    assert problem.endswith("nothing imported (a limit: see below to read it again with a higher one)")
    assert "Refused at a limit" in dialog.status.text()
    _no_flags(dialog)
    assert dialog.limit_value.value() == 1
    dialog.raise_button.click()
    drain(qtbot, studio_app)
    assert not dialog.limit_box.isVisibleTo(dialog) and _problems(dialog) == []
    shown = len(dialog.card_items())
    assert shown > 0 and dialog.import_button.isEnabled()
    assert dialog.raised[deck].max_entry_mb == 1
    dialog.import_button.click()
    drain(qtbot, studio_app)
    assert dialog.summary.cards == shown


def test_a_ratio_bomb_offers_a_higher_ratio_for_that_file_only(studio_app, qtbot, tmp_path):
    bomb = tmp_path / "bomb.apkg"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("collection.anki2", bytes(17 * 1024 * 1024))  # 17 MB of zeros: about 1000:1
    dialog = _dialog(studio_app, qtbot, bomb)
    assert "expands more than 200 times its packed size" in dialog.limit_label.text()
    _no_flags(dialog)
    assert dialog.limit_value.value() == 2000
    dialog.raise_button.click()
    drain(qtbot, studio_app)
    assert dialog.raised[bomb].max_ratio == 2000 and dialog.limits.max_ratio == 200  # this file only
    (problem,) = _problems(dialog)  # past the ratio, the zeros are no collection: a plain refusal
    assert "the collection inside is damaged" in problem and not dialog.limit_box.isVisibleTo(dialog)


def test_a_csv_over_the_time_limit_is_read_again_with_more_time(studio_app, qtbot, tmp_path):
    deck = tmp_path / "deck.csv"
    deck.write_text("q1,a1\nq2,a2\nq3,a3\n", encoding="utf-8")
    ticks = itertools.count(step=10)  # every look at the clock: 10 s later
    dialog = _dialog(studio_app, qtbot, deck, Limits(time_limit_s=15, clock=lambda: next(ticks)))
    assert dialog.limit_label.text().startswith("Reading this file took longer than the limit of 15 s.")
    _no_flags(dialog)
    dialog.limit_value.setValue(100)
    dialog.raise_button.click()
    drain(qtbot, studio_app)
    assert len(dialog.card_items()) == 3 and _problems(dialog) == []
