"""The drill plot's "Profile this point" menu and the profile view (no ncu, no GPU here)."""

from __future__ import annotations

import json
from pathlib import Path

from studio.drills import ncu
from studio.drills.profiler import Profile, Profiler
from studio.drills.result import BenchPoint

FIXTURES = Path(__file__).resolve().parents[1] / "drills" / "ncu_fixtures"


def _point(size=(4096, 1024)):
    return BenchPoint(size=list(size), dtype="float32", passed=True, ms=0.02, p20=0.019, p80=0.021,
                      ref_ms=0.025, gbps=1600.0, bytes=33_554_432)


def test_menu_says_why_when_unavailable(qtbot):
    from studio.ui.drill_plot import DrillPlot

    plot = DrillPlot()
    qtbot.addWidget(plot)
    plot.add_point(_point())
    plot.redraw()
    assert plot.point_at(0.1) is plot.points[0] and plot.point_at(0.5) is None and plot.point_at(3) is None
    plot.profile_check = lambda: ncu.Unavailable("no_ncu", "x", "y")
    menu = plot.profile_menu(plot.points[0])
    actions = menu.actions()
    assert not actions[0].isEnabled() and "4096×1024 float32" in actions[0].text()
    assert "ncu" in actions[1].text() and "PATH" in actions[2].text()
    plot.profile_check = lambda: None
    menu = plot.profile_menu(plot.points[0])
    with qtbot.waitSignal(plot.profile_requested) as got:
        menu.actions()[0].trigger()
    assert got.args[0] is plot.points[0]


def _profile(solution_csv: str) -> Profile:
    from tests.drills.test_ncu import FakeNcu, _request

    fake = FakeNcu({"solution": (FIXTURES / solution_csv).read_text(),
                    "baseline": (FIXTURES / "raw_baseline_torch.csv").read_text()})
    return Profiler(ncu="/x/ncu", runner=fake).profile(_request(Path("/tmp")))


def test_view_shows_both_sides_the_verdict_and_the_change(qtbot):
    from studio.ui.profile_view import ProfileView

    slow, fast = _profile("raw_missing_metrics.csv"), _profile("raw_solution_triton.csv")
    view = ProfileView(lang="en")
    qtbot.addWidget(view)
    view.set_profile(slow)
    text = view.verdict.text()
    assert "Loads use 12% of each 32-byte sector" in text
    assert "4.50× the bytes model" not in text          # two kernels: the total is checked in the core
    view.set_profile(fast, previous=json.loads(json.dumps(slow.to_dict())))
    assert view.verdict.text().startswith("Memory-bound: memory at 88% of peak")
    rows = {view.table.item(r, 0).text(): r for r in range(view.table.rowCount())}
    r = rows["DRAM bytes read"]
    assert view.table.item(r, 1).text() == "16.78 MB" and view.table.item(r, 3).text() == "134.22 MB"
    assert "cunn_SoftMaxForward" in view.kernels.text()
    assert "Roadmap: gpu.memory-hierarchy" in view.table.item(r, 0).toolTip()
    assert not view.table.isColumnHidden(3)


def test_view_in_chinese_explains_in_chinese(qtbot):
    from studio.ui.profile_view import ProfileView

    view = ProfileView(lang="zh_CN")
    qtbot.addWidget(view)
    view.set_profile(_profile("raw_solution_triton.csv"))
    names = [view.table.item(r, 0).text() for r in range(view.table.rowCount())]
    assert "L2 命中率" in names
    assert "HBM" in view.table.item(names.index("DRAM 读字节数"), 0).toolTip()


def test_view_unavailable(qtbot):
    from studio.ui.profile_view import ProfileView

    view = ProfileView()
    qtbot.addWidget(view)
    profile = Profile("softmax", [8], "float32", status="unavailable",
                      unavailable=ncu.Unavailable("no_permission", "r", "t"))
    view.set_profile(profile)
    assert "ERR_NVGPUCTRPERM" in view.verdict.text() and view.table.rowCount() == 0
