"""The Bench pane: a user's kernel opened, its spec written from the form, a run end to end
(interpreter), streamed points reaching the plot, history, overlay, compare and exports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox

from studio.drills.events import BenchPointEvent, CaseResultEvent
from studio.drills.result import BenchPoint, CaseResult
from tests.conftest import close_app, drain

FIXTURES = Path(__file__).resolve().parents[1] / "drills" / "bench_fixtures"


@pytest.fixture
def pane(studio_app, qtbot, tmp_path):
    pane = studio_app.window.show_pane("bench")
    drain(qtbot, studio_app)
    yield pane
    pane.shutdown()
    drain(qtbot, studio_app)
    close_app(studio_app)


def test_empty_state_then_a_kernel_lists_its_functions(pane, tmp_path, qtbot):
    assert pane.empty.isVisibleTo(pane) and "open the Python file" in pane.empty.text()
    assert not pane.run_button.isEnabled()
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    pane.open_kernel(kernel)
    assert [pane.func.itemText(i) for i in range(pane.func.count())] == [
        "row_scale", "row_scale_wrong", "row_scale_raises_on_wide", "row_scale_torch"]
    assert "not written yet" in pane.spec_label.text() and not pane.run_button.isEnabled()
    assert not pane.empty.isVisibleTo(pane)


def test_the_spec_form_writes_a_spec_that_enables_run(pane, tmp_path, monkeypatch):
    from studio.ui.panes.bench_pane import SpecDialog

    kernel = tmp_path / "k.py"
    kernel.write_text("def scale(a, b):\n    return a * b\n")
    pane.open_kernel(kernel)
    dialog = SpecDialog(pane)
    dialog.sizes.setText("4x8, 16x32")
    dialog.count.setValue(2)
    dialog.shapes[1].setText("(size[0], 1)")
    dialog.reference.setText("a * b")
    dialog._accept()
    assert dialog.result() == QDialog.Accepted
    assert pane.save_spec(pane.spec_path(), dialog.text)
    assert "k.bench.py" in pane.spec_label.text() and "not written" not in pane.spec_label.text()
    assert pane.run_button.isEnabled()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.No)
    assert not pane.save_spec(pane.spec_path(), "x = 1\n")  # an existing spec is not replaced unasked
    bad = SpecDialog(pane)
    bad.reference.setText("q + 1")
    bad._accept()
    assert "unknown name" in bad.error.text()


def test_a_run_end_to_end_fills_the_table_and_the_history(pane, studio_app, qtbot, tmp_path):
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    shutil.copy(FIXTURES / "row_scale.bench.py", tmp_path / "row_scale.bench.py")
    pane.open_kernel(kernel)
    pane.func.setCurrentText("row_scale_raises_on_wide")
    pane.start_run()
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=120_000)
    drain(qtbot, studio_app)
    assert pane.table.rowCount() == 4
    checks = {(pane.table.item(r, 0).text(), pane.table.item(r, 1).text()): pane.table.item(r, 2).text()
              for r in range(4)}
    assert checks[("3x33", "float32")] == "ok" and checks[("5x100", "float32")] == "FAILED"
    assert "2 of 4 sizes correct" in pane.status.text()
    # the reason is in the status, not only in a tooltip; the plot names its timing protocol
    assert "first failure, 5x100 float32" in pane.status.text() and "only handles rows up to 64" in pane.status.text()
    assert pane.plot.title == "Timing protocol: engine (L2 flushed, interleaved)"
    qtbot.waitUntil(lambda: pane.history.count() == 1, timeout=10_000)
    assert pane.doc["run_id"] == pane.history.itemData(0)
    csv_path = tmp_path / "out.csv"
    pane.export_csv(str(csv_path))
    assert csv_path.read_text().startswith("size,dtype,passed")
    assert "| 5x100 | float32 | ✗ |" in pane.markdown()


def _point(size, ms, dtype="float16"):
    return BenchPoint(size=size, dtype=dtype, ms=ms, p20=ms * 0.98, p80=ms * 1.02, bytes=size[0] * size[1] * 4,
                      gbps=size[0] * size[1] * 4 / (ms * 1e-3) / 1e9, ref_ms=ms * 1.5, baseline="torch",
                      ref_gbps=size[0] * size[1] * 4 / (ms * 1.5e-3) / 1e9,
                      baselines={"torch": {"ms": ms * 1.5}, "torch.compile": {"ms": ms * 1.2}})


def test_a_hundred_streamed_points_all_reach_the_plot_and_the_table(pane, tmp_path, qtbot):
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    pane.open_kernel(kernel)
    pane.plot.reset("gbps", 3000.0)
    for i in range(100):
        size = [4096, 64 * (i + 1)]
        pane.on_event(CaseResultEvent(CaseResult(name=str(i), passed=True, shape=size, dtype="float16",
                                                 max_abs_err=0.0)))
        pane.on_event(BenchPointEvent(_point(size, 0.005 + i * 1e-4)))
    series = pane.plot.series()
    assert len(series["you"]) == 100 and len(series["torch"]) == 100 and len(series["b:torch.compile"]) == 100
    assert pane.table.rowCount() == 100 and pane.table.item(99, 4).text() == f"{(0.005 + 99e-4) * 1e3:.1f}"
    qtbot.waitUntil(lambda: set(pane.plot._curves) == {"you", "torch", "b:torch.compile"}, timeout=5000)
    assert len(pane.plot._curves["you"].getData()[0]) == 100  # every point is drawn, not only listed
    assert pane.plot.note.text() == ""  # the "nothing plotted yet" note goes once points are drawn
    path = tmp_path / "plot.png"
    pane.export_png(str(path))
    assert path.stat().st_size > 1000


def test_overlay_and_compare_with_an_earlier_run(pane, studio_app, qtbot, tmp_path):
    from studio.core.bench_runs import record_run

    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    spec = tmp_path / "row_scale.bench.py"
    shutil.copy(FIXTURES / "row_scale.bench.py", spec)
    old = {"status": "passed", "protocol": "engine", "points": [
        {"size": [4096, 1024], "dtype": "float16", "passed": True, "ms": 0.020, "p20": 0.0195, "p80": 0.0205,
         "gbps": 1600.0}]}
    run_id = studio_app.tasks.call(lambda col: record_run(col, old, kernel, "row_scale", spec))
    pane.open_kernel(kernel)
    qtbot.waitUntil(lambda: pane.history.count() == 1, timeout=10_000)
    pane.overlay_run()
    assert len(pane.plot.series()["overlay"]) == 1
    pane.doc = {"status": "passed", "protocol": "engine", "points": [
        {"size": [4096, 1024], "dtype": "float16", "passed": True, "ms": 0.010, "p20": 0.0098, "p80": 0.0102}]}
    pane.compare_run()
    row = pane.rows[((4096, 1024), "float16")]
    assert pane.table.item(row, 8).text() == "2.00x faster"
    assert pane.table.horizontalHeaderItem(8).text() == f"vs #{run_id}"
    assert "2.00x faster" in pane.markdown()


def test_quick_open_finds_the_bench_pane(studio_app, qtbot):
    from studio.ui.quick_open import QuickOpen

    dialog = QuickOpen(studio_app.window.ctx, studio_app.window, panes=studio_app.window.pane_titles)
    dialog.edit.setText("bench")
    dialog._search()
    qtbot.waitUntil(lambda: dialog.list.count() > 0, timeout=5000)
    dialog._accept(dialog.list.item(0))
    assert studio_app.window.current_pane_id() == "bench"
    dialog.deleteLater()
    close_app(studio_app)


def test_roofline_places_points_by_intensity_under_both_ceilings(pane):
    pane.plot.reset("gbps", None)
    pane.plot.set_peak(3000.0, 700.0)
    for flops, nbytes, ms in ((2 * 4096 ** 3, 3 * 4096 * 4096 * 2, 0.2), (4096 * 4096, 2 * 4096 * 4096 * 2, 0.03)):
        pane.on_event(BenchPointEvent(BenchPoint(size=[4096], dtype="float16", ms=ms, flops=flops, bytes=nbytes,
                                                 tflops=flops / (ms * 1e-3) / 1e12)))
    data = pane.plot.roofline()
    assert abs(data["knee"] - 700e12 / 3000e9) < 1e-9
    assert [round(x, 3) for x, _ in data["points"]] == [round(2 * 4096 / 6, 3), 0.25]
    pane.plot.view.setCurrentIndex(pane.plot.view.findData("roofline"))
    assert pane.plot.note.text() == ""


def test_the_compile_checkbox_asks_for_the_compile_baseline(pane, tmp_path):
    from studio.drills.bench_cli import bench_request

    request = bench_request(tmp_path / "k.py", "f", tmp_path / "k.bench.py", compile_baseline=True)
    assert request.problem["compile_baseline"] is True and request.lang == "torch"
    assert pane.compile_box.text() == "+ torch.compile"


def test_save_as_drill_lists_it_under_my_drills(pane, studio_app, qtbot, tmp_path):
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    shutil.copy(FIXTURES / "row_scale.bench.py", tmp_path / "row_scale.bench.py")
    pane.open_kernel(kernel)
    assert pane.drill_button.isEnabled()
    drill = pane.make_drill("Row scale", "Scale each row.", 15, "easy")
    assert drill is not None and "My drills" in pane.status.text()
    drills = studio_app.window.show_pane("drills")
    drain(qtbot, studio_app)
    texts = [drills.list.item(i).text() for i in range(drills.list.count())]
    heading = texts.index("My drills")
    assert texts[heading + 1].startswith("Row scale")
    drills.select_drill("my-row-scale")
    assert drills.drill.id == "my-row-scale" and "def row_scale(x, s)" in drills.editor.toPlainText()
    drills.list.setCurrentRow(heading)  # the heading is not a drill
    assert drills.drill.id == "my-row-scale"


def test_the_legend_is_readable_in_the_dark_theme(pane):
    from PySide6.QtGui import QColor, QPalette

    dark = QPalette()
    dark.setColor(QPalette.Window, QColor("#202124"))
    dark.setColor(QPalette.WindowText, QColor("#e8eaed"))
    pane.plot.setPalette(dark)
    box, text = pane.plot.legend.opts["brush"].color(), pane.plot.legend.opts["labelTextColor"]
    assert box.lightness() < 80 and text.lightness() > 180


@pytest.mark.gpu
def test_on_a_gpu_a_run_end_to_end_puts_every_point_on_the_plot(pane, studio_app, qtbot, tmp_path):
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    shutil.copy(FIXTURES / "row_scale.bench.py", tmp_path / "row_scale.bench.py")
    pane.open_kernel(kernel)
    pane.func.setCurrentText("row_scale")
    pane.compile_box.setChecked(True)
    pane.start_run()
    qtbot.waitUntil(lambda: not pane.is_running(), timeout=300_000)
    drain(qtbot, studio_app)
    assert pane.status.text().startswith("passed: 4 of 4 sizes correct"), pane.status.text()
    series = pane.plot.series()
    assert len(series["you"]) == 4 and len(series["torch"]) == 4 and len(series["b:torch.compile"]) == 4
    qtbot.waitUntil(lambda: len(pane.plot._curves.get("you").getData()[0]) == 4 if "you" in pane.plot._curves
                    else False, timeout=5000)
    assert all(pane.table.item(r, 5).text() for r in range(4))  # GB/s in every row


def test_profile_this_point_profiles_the_last_runs_kernel(pane, tmp_path, monkeypatch):
    # The Bench pane's plot offers "Profile this point" like the drills pane: the request is
    # the last run's kernel, function and spec at the clicked point's size and dtype, and the
    # profile is kept with that bench run. Nothing happens before a run.
    import studio.ui.profile_view as profile_view
    from studio.drills import ncu

    assert pane.plot.profile_check is ncu.unavailable_reason
    made = []

    class FakeDialog:
        def __init__(self, ctx, request, source, code="", attempt_id=None, bench_run_id=None, parent=None):
            made.append((request, source, code, bench_run_id))

        def show(self):
            pass

        def start(self):
            made.append("started")

    monkeypatch.setattr(profile_view, "ProfileDialog", FakeDialog)
    point = BenchPoint(size=[64, 128], dtype="float16", passed=True, ms=0.01)
    pane.profile_point(point)
    assert made == []
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    spec = tmp_path / "row_scale.bench.py"
    spec.write_text("# spec\n")
    pane.kernel_used, pane.func_used, pane.spec_used = kernel, "row_scale", spec
    pane.doc = {"run_id": 7}
    pane.profile_point(point)
    request, source, code, run_id = made[0]
    assert (request.entry, request.size, request.dtype, source, run_id) == ("row_scale", [64, 128], "float16", "bench", 7)
    assert request.bench_spec == str(spec.resolve()) and "def row_scale" in code and made[1] == "started"
