"""Review settings → Optimise (issue #28): FSRS parameters fitted in a child process, shown with
log loss / RMSE before and after, stored only when the user chooses them and presses OK.

Most tests answer the dialog through the child's JSON protocol with a stand-in child (fast);
one runs the real optimiser on a synthetic log, with torch, pandas and fsrs.optimizer made
unimportable in this (the GUI) process.
"""

from __future__ import annotations

import json
import sys

import pytest
from sqlalchemy import func, select

from studio.core.review import PARAMETERS_SETTING, fsrs_parameters
from studio.ui.review_settings import ReviewSettingsDialog
from tests.conftest import drain

HEAVY = ("torch", "pandas", "fsrs.optimizer")


def _history(studio_app, cards: int) -> None:
    from tests.core.test_optimise import _synthetic_history

    def add(col) -> None:
        from studio.core.models import Card

        with col.db.session() as s:
            first = int(s.scalar(select(func.max(Card.id))) or 0) + 1
        _synthetic_history(col, cards=cards, first_id=first)

    studio_app.tasks.call(add)


def _dialog(studio_app, qtbot) -> ReviewSettingsDialog:
    dialog = ReviewSettingsDialog(studio_app.window.ctx)
    qtbot.addWidget(dialog)
    drain(qtbot, studio_app)
    qtbot.waitUntil(dialog.isEnabled, timeout=10000)
    return dialog


def _child(answer: dict | str, code: int = 0, sleep: float = 0.0):
    """A stand-in child: prints `answer` (JSON) as its last line and exits with `code`."""
    line = answer if isinstance(answer, str) else json.dumps(answer)
    script = f"import sys, time; time.sleep({sleep}); print('fitting...'); print({line!r}); sys.exit({code})"
    return lambda db_path: [sys.executable, "-c", script]


def _run(dialog, qtbot, timeout: int = 30000) -> None:
    dialog.optimise_button.click()
    assert dialog.process is not None and dialog.optimise_button.text() == "Stop"
    assert dialog.optimise_progress.isVisibleTo(dialog)
    qtbot.waitUntil(lambda: dialog.process is None, timeout=timeout)


def _stored(studio_app):
    return studio_app.tasks.call(lambda col: col.get_setting(PARAMETERS_SETTING, None))


def test_optimise_waits_for_400_reviews_and_says_how_many_more(studio_app, qtbot):
    _history(studio_app, cards=30)  # 240 reviews
    dialog = _dialog(studio_app, qtbot)
    assert not dialog.optimise_button.isEnabled() and not dialog.default_button.isEnabled()
    assert dialog.parameters_label.text() == ("In use: the default parameters. Optimise needs at least 400 "
                                              "reviews: you have 240, 160 more to go.")
    assert dialog.retention.isEnabled()  # desired retention stays settable


def test_fit_is_shown_and_stored_only_when_chosen_and_saved(studio_app, qtbot):
    from fsrs import Scheduler

    _history(studio_app, cards=60)  # 480 reviews
    fitted = [round(w * 1.1, 4) if i < 4 else w for i, w in enumerate(Scheduler().parameters)]
    answer = {"parameters": fitted, "reviews": 480, "before": {"log_loss": 0.5123, "rmse": 0.0811, "n": 400},
              "after": {"log_loss": 0.4567, "rmse": 0.0345, "n": 400}}
    dialog = _dialog(studio_app, qtbot)
    assert dialog.optimise_button.isEnabled() and "480" not in dialog.parameters_label.text()
    dialog.command = _child(answer)
    _run(dialog, qtbot)
    assert dialog.fit_label.text() == ("Fitted to 480 reviews. Log loss: 0.5123 now, 0.4567 fitted. "
                                       "RMSE: 0.0811 now, 0.0345 fitted.")
    assert dialog.use_fit_button.isVisibleTo(dialog) and dialog.pending is None
    # Cancel after a fit: nothing stored.
    dialog.reject()
    drain(qtbot, studio_app)
    assert _stored(studio_app) is None

    dialog = _dialog(studio_app, qtbot)
    dialog.command = _child(answer)
    _run(dialog, qtbot)
    dialog.use_fit_button.click()
    assert dialog.parameters_label.text() == "On OK: the fitted parameters (480 reviews)."
    assert dialog.default_button.isEnabled()
    dialog.retention.setValue(0.93)
    dialog.save()
    drain(qtbot, studio_app)
    assert dialog.result() == ReviewSettingsDialog.Accepted
    assert studio_app.tasks.call(fsrs_parameters) == tuple(fitted)
    assert _stored(studio_app)["after"]["log_loss"] == 0.4567
    scheduler = studio_app.tasks.call(lambda col: __import__("studio.core.review", fromlist=["x"])
                                      .make_scheduler(col))
    assert scheduler.parameters == tuple(fitted) and scheduler.desired_retention == 0.93

    # Back to the defaults, again only on OK.
    dialog = _dialog(studio_app, qtbot)
    assert dialog.parameters_label.text().startswith("In use: parameters fitted to 480 reviews on ")
    assert dialog.default_button.isEnabled()
    dialog.default_button.click()
    assert dialog.parameters_label.text() == "On OK: the default parameters."
    assert studio_app.tasks.call(fsrs_parameters) == tuple(fitted)
    dialog.save()
    drain(qtbot, studio_app)
    assert _stored(studio_app) is None and studio_app.tasks.call(fsrs_parameters) is None


def test_a_fit_that_is_no_better_says_so(studio_app, qtbot):
    from fsrs import Scheduler

    _history(studio_app, cards=60)
    dialog = _dialog(studio_app, qtbot)
    dialog.command = _child({"parameters": list(Scheduler().parameters), "reviews": 480,
                             "before": {"log_loss": 0.4, "rmse": 0.03}, "after": {"log_loss": 0.41, "rmse": 0.04}})
    _run(dialog, qtbot)
    assert "do not predict your reviews better" in dialog.fit_label.text()
    dialog.command = _child({"parameters": list(Scheduler().parameters), "reviews": 480,
                             "before": {"log_loss": 0.4, "rmse": 0.03}, "after": {"log_loss": 0.39, "rmse": 0.05}})
    _run(dialog, qtbot)
    assert "the RMSE is higher" in dialog.fit_label.text() and "do not predict" not in dialog.fit_label.text()


@pytest.mark.parametrize("answer, code, why", [
    ({"error": "480 reviews; at least 400 are needed"}, 2, "480 reviews; at least 400 are needed"),
    ("not json at all", 0, "not json at all"),
    ({"parameters": [1, 2]}, 0, "incomplete"),
    ({"parameters": [0.1] * 21, "reviews": 480, "before": {}, "after": {}}, 3, "the optimiser failed"),
])
def test_a_failed_child_changes_nothing_and_says_why(studio_app, qtbot, answer, code, why):
    _history(studio_app, cards=60)
    dialog = _dialog(studio_app, qtbot)
    dialog.command = _child(answer, code)
    _run(dialog, qtbot)
    assert dialog.fit_label.text().startswith("Could not optimise: ") and why in dialog.fit_label.text()
    assert not dialog.use_fit_button.isVisibleTo(dialog) and dialog.pending is None
    assert dialog.optimise_button.isEnabled() and dialog.optimise_button.text() == "Optimise"
    dialog.save()
    drain(qtbot, studio_app)
    assert _stored(studio_app) is None


def test_stop_and_close_end_the_child(studio_app, qtbot):
    _history(studio_app, cards=60)
    dialog = _dialog(studio_app, qtbot)
    dialog.command = _child({"error": "never printed"}, sleep=60)
    dialog.optimise_button.click()
    process = dialog.process
    qtbot.waitUntil(lambda: process.state() == process.ProcessState.Running, timeout=10000)
    dialog.optimise_button.click()  # Stop
    qtbot.waitUntil(lambda: dialog.process is None, timeout=10000)
    assert dialog.fit_label.text() == "Stopped; nothing changed."
    dialog.optimise_button.click()
    running = dialog.process
    qtbot.waitUntil(lambda: running.state() == running.ProcessState.Running, timeout=10000)
    pid = running.processId()
    dialog.reject()  # closing the dialog does not leave the child behind
    import os

    with pytest.raises(ProcessLookupError):
        for _ in range(50):
            os.kill(pid, 0)
            qtbot.wait(100)


def test_the_real_optimiser_runs_outside_the_gui_process(studio_app, qtbot, monkeypatch):
    pytest.importorskip("fsrs.optimizer")
    _history(studio_app, cards=120)  # 960 reviews drawn from a known model (tests/core/test_optimise.py)
    loaded = set(sys.modules)
    for name in HEAVY:  # any import of these in this process now fails, and the fit with it
        monkeypatch.setitem(sys.modules, name, None)
    dialog = _dialog(studio_app, qtbot)
    _run(dialog, qtbot, timeout=900_000)
    assert dialog.fit is not None, dialog.fit_label.text()
    assert dialog.fit.reviews == 960 and dialog.fit.after["log_loss"] < dialog.fit.before["log_loss"]
    assert dialog.fit_label.text().startswith("Fitted to 960 reviews. Log loss: ")
    dialog.use_fit_button.click()
    dialog.save()
    drain(qtbot, studio_app)
    assert studio_app.tasks.call(fsrs_parameters) == tuple(dialog.fit.parameters)
    for name in HEAVY:
        monkeypatch.delitem(sys.modules, name)
    new = set(sys.modules) - loaded
    assert not [m for m in new if m.split(".")[0] in ("torch", "pandas") or m.startswith("fsrs.optimizer")]
