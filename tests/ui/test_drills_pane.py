"""The Drills pane end to end in interpreter mode: drafts, runs, errors, stop, timeout, plot."""

from __future__ import annotations

import time

import pytest

from tests.conftest import drain

FAILING = '''
import torch

def softmax(x):
    print("hello from the user's kernel")
    y = torch.exp(x)            # forgets to subtract the max and to normalise
    return y
'''

RAISING = '''
import torch

def softmax(x):
    a = 1
    raise ValueError("boom on purpose")
'''

HANGING = '''
import time

def softmax(x):
    while True:
        time.sleep(0.1)
'''


@pytest.fixture
def pane(studio_app, qtbot):
    pane = studio_app.window.show_pane("drills")
    drain(qtbot, studio_app)
    pane.select_drill("softmax")
    drain(qtbot, studio_app)
    return pane


def _wait_run(qtbot, app, pane, timeout=240_000):
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=timeout)
    qtbot.waitUntil(lambda: pane.result is not None, timeout=10_000)
    drain(qtbot, app)


def test_draft_is_autosaved_and_restored(studio_app, qtbot, pane):
    from studio.ui.panes.drills_pane import draft_path

    pane.editor.setPlainText("# my attempt\n")
    qtbot.waitUntil(lambda: draft_path("softmax", "triton").is_file(), timeout=3000)
    assert draft_path("softmax", "triton").read_text() == "# my attempt\n"
    pane.select_drill("vector_add")
    pane.select_drill("softmax")
    assert pane.editor.toPlainText() == "# my attempt\n"


def test_starter_loads_and_reset(studio_app, qtbot, pane, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    assert "def softmax" in pane.editor.toPlainText()
    pane.editor.setPlainText("garbage")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    pane.reset_to_starter()
    assert pane.editor.toPlainText() == pane.drill.starter_triton.read_text()


def test_passing_solution_records_an_attempt(studio_app, qtbot, pane):
    pane.editor.setPlainText(pane.drill.solution.read_text())
    pane.start_run()
    _wait_run(qtbot, studio_app, pane)
    assert pane.result.status == "passed", pane.result.error
    statuses = {pane.results.item(r, 1).text() for r in range(pane.results.rowCount())}
    assert statuses == {"passed"}
    qtbot.waitUntil(lambda: pane.history.rowCount() == 1, timeout=5000)
    assert studio_app.tasks.collection.counts()["drill_attempts"] == 1


def test_failing_solution_shows_cases_and_console(studio_app, qtbot, pane):
    pane.lang_box.setCurrentIndex(pane.lang_box.findData("torch"))
    pane.editor.setPlainText(FAILING)
    pane.start_run()
    _wait_run(qtbot, studio_app, pane)
    assert pane.result.status != "passed"
    assert "FAILED" in {pane.results.item(r, 1).text() for r in range(pane.results.rowCount())}
    assert "hello from the user's kernel" in pane.console.toPlainText()


def test_error_jumps_to_its_line(studio_app, qtbot, pane):
    pane.lang_box.setCurrentIndex(pane.lang_box.findData("torch"))
    pane.editor.setPlainText(RAISING)
    pane.start_run()
    _wait_run(qtbot, studio_app, pane)
    rows = [r for r in range(pane.results.rowCount()) if pane.results.item(r, 0).data(0x0100)]
    assert rows, "an error row carries the line of the user's code"
    line = pane.results.item(rows[0], 0).data(0x0100)
    assert line == 6
    pane.editor.go_to_line(1)
    pane._result_clicked(rows[0], 3)
    assert pane.editor.textCursor().blockNumber() == 5


def test_stop_kills_the_child_and_hang_times_out(studio_app, qtbot, pane):
    pane.lang_box.setCurrentIndex(pane.lang_box.findData("torch"))
    pane.editor.setPlainText(HANGING)
    pane.start_run()
    qtbot.waitUntil(lambda: pane.results.rowCount() == 0 and pane.is_running(), timeout=5000)
    time.sleep(2)
    pane.stop_run()
    _wait_run(qtbot, studio_app, pane, timeout=30_000)
    assert pane.result.status in ("stopped", "timeout")
    assert pane.run_button.isEnabled()
    pane.start_run(timeout_s=6)
    _wait_run(qtbot, studio_app, pane, timeout=60_000)
    assert pane.result.status == "timeout"
    assert pane.run_button.isEnabled() and not pane.stop_button.isEnabled()


def test_plot_fills_in_from_streamed_points(studio_app, qtbot, pane):
    from studio.drills.events import BenchInfo, BenchPointEvent
    from studio.drills.result import BenchPoint

    pane.plot.reset("gbps")
    pane.on_event(BenchInfo(available=True, note=None, copy_gbps=3000.0))
    for n, (ms, ref) in enumerate(((0.02, 0.03), (0.1, 0.12), (0.5, 0.5))):
        point = BenchPoint(size=[4096, 1024 * 2 ** n], dtype="float16", ms=ms, p20=ms * 0.9, p80=ms * 1.1,
                           ref_ms=ref, bytes=2 * 4096 * 1024 * 2 ** n * 2, gbps=100.0 * (n + 1),
                           ref_gbps=90.0 * (n + 1))
        pane.on_event(BenchPointEvent(point=point))
        assert len(pane.plot.series()["you"]) == n + 1
    series = pane.plot.series()
    assert [y for _, y in series["you"]] == [100.0, 200.0, 300.0]
    assert [y for _, y in series["torch"]] == [90.0, 180.0, 270.0]
    assert pane.plot.peak == 3000.0
    pane.plot.view.setCurrentIndex(1)  # time view in microseconds
    assert [round(y) for _, y in pane.plot.series()["you"]] == [20, 100, 500]


def test_countdown_warns_and_records_overrun(studio_app, qtbot, pane):
    messages = []
    studio_app.bus.status_message.connect(messages.append)
    pane.minutes.setValue(6)
    pane.toggle_countdown()
    pane.countdown_left = 5 * 60 + 1
    pane._tick()
    assert any("5 minutes" in m for m in messages)
    pane.countdown_left = 0
    pane._tick()
    assert pane.clock.text() == "+00:01"
    pane.toggle_countdown()


def test_time_to_first_full_pass_is_recorded(studio_app, qtbot, pane):
    from studio.core.drill_attempts import list_attempts

    pane.toggle_countdown()
    pane.countdown_left -= 95  # 95 s into the timed attempt
    pane.editor.setPlainText(pane.drill.solution.read_text())
    pane.start_run()
    _wait_run(qtbot, studio_app, pane)
    qtbot.waitUntil(lambda: pane.history.rowCount() == 1, timeout=5000)
    attempt = list_attempts(studio_app.tasks.collection, "softmax")[0]
    assert attempt.passed and 95 <= attempt.time_to_pass_s < 95 + 240  # the clock runs during the run
    assert not attempt.over_time
    pane.toggle_countdown()
