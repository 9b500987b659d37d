"""Does the Bench pane stay responsive while 100 points stream in?

The engine's side is replaced by a feeder thread that sends what a GPU run sends (a case
result and a timed point with three baselines, every 20 ms, for 100 sizes, then the end of
the run) through the pane's real event path: the run thread's queue, the table, the plot
redrawn at every point, the history write. A 10 ms QTimer probes the event loop meanwhile;
the largest gap between two ticks, minus the period, is the worst stall (target: 50 ms,
issue #18). No GPU is needed: the cost measured is the GUI's. Results go to
bench/results/bench_ui_jitter.json with the machine.

    python bench/bench_ui_jitter.py [--runs 3] [--points 100]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class FakeRunner:
    """Yields the events of a 100-point GPU bench at a steady pace."""

    def __init__(self, points: int, kernel: Path) -> None:
        self.points, self.kernel = points, kernel

    def events(self, _request):
        from studio.drills.events import BenchInfo, BenchPointEvent, CaseResultEvent, Finished, RunStarted
        from studio.drills.result import BenchPoint, CaseResult, RunResult

        yield RunStarted(mode="gpu", device="(synthetic feed)", versions={}, lang="torch")
        yield BenchInfo(True, "engine protocol (synthetic feed)", 3000.0, 700.0)
        result = RunResult(drill="bench", file=str(self.kernel), status="passed", mode="gpu", device="(synthetic)")
        for i in range(self.points):
            size = [4096, 64 * (i + 1)]
            ms = 0.005 + i * 1e-4
            nbytes = 2 * size[0] * size[1] * 2
            case = CaseResult(name=str(i), passed=True, shape=size, dtype="float16", max_abs_err=0.0)
            result.cases.append(case)
            yield CaseResultEvent(case)
            point = BenchPoint(size=size, dtype="float16", ms=ms, p20=ms * 0.98, p80=ms * 1.02, bytes=nbytes,
                               gbps=nbytes / (ms * 1e-3) / 1e9, ref_ms=ms * 1.4,
                               ref_gbps=nbytes / (ms * 1.4e-3) / 1e9, baseline="torch",
                               baselines={"torch": {"ms": ms * 1.4}, "torch.compile": {"ms": ms * 1.2},
                                          "mine": {"ms": ms * 1.1}})
            result.bench.points.append(point)
            yield BenchPointEvent(point)
            time.sleep(0.02)
        result.bench.requested = True
        yield Finished(result)

    def stop(self) -> None:
        pass


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--points", type=int, default=100)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = Path(tempfile.mkdtemp(prefix="studio-bench-jitter-"))
    os.environ["STUDIO_HOME"] = str(home)
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    import studio.ui.panes.bench_pane as bench_pane
    from studio.core.collection import Collection
    from studio.core.settings import Settings
    from studio.ui.application import StudioApp, _drain

    kernel = home / "row_scale.py"
    shutil.copy(ROOT / "tests" / "drills" / "bench_fixtures" / "row_scale.py", kernel)
    shutil.copy(ROOT / "tests" / "drills" / "bench_fixtures" / "row_scale.bench.py", home / "row_scale.bench.py")
    app = StudioApp(Collection.open(), Settings(), language="en", theme_name="light")
    window = app.window
    window.resize(1400, 860)
    window.show()
    pane = window.show_pane("bench")
    pane.open_kernel(kernel)
    _drain(app)
    bench_pane.DrillRunner = None  # not used: the feeder stands in for the engine
    runs = []
    for _ in range(args.runs):
        ticks: list[float] = []
        timer = QTimer()
        timer.setInterval(10)
        timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
        original = bench_pane.DrillRunThread.__init__

        def patched(self, runner, request, parent=None, _orig=original):
            _orig(self, FakeRunner(args.points, kernel), request, parent)

        bench_pane.DrillRunThread.__init__ = patched
        timer.start()
        pane.start_run()
        start = time.perf_counter()
        while pane.is_running() and time.perf_counter() - start < 120:
            QApplication.processEvents()
            time.sleep(0.001)
        settle = time.perf_counter()
        while time.perf_counter() - settle < 1.0:
            QApplication.processEvents()
            time.sleep(0.001)
        timer.stop()
        bench_pane.DrillRunThread.__init__ = original
        gaps = [(b - a) * 1000 for a, b in zip(ticks, ticks[1:])]
        worst = sorted(((g, round((ticks[i] - ticks[0]) * 1000)) for i, g in enumerate(gaps)), reverse=True)[:3]
        runs.append({"worst_gaps_at_ms": [(round(g), at) for g, at in worst],"points_in_plot": len(pane.plot.series()["you"]), "rows": pane.table.rowCount(),
                     "run_s": round(time.perf_counter() - start, 1), "max_stall_ms": round(max(gaps) - 10, 1),
                     "p99_gap_ms": round(sorted(gaps)[int(len(gaps) * 0.99)], 1),
                     "median_gap_ms": round(statistics.median(gaps), 1)})
    result = {
        "what": "largest event-loop stall (timer gap minus its 10 ms period) while a bench streams points",
        "command": f"python bench/bench_ui_jitter.py --runs {args.runs} --points {args.points}",
        "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.platform()}, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "target_ms": 50,
        "runs": runs,
        "worst_stall_ms": max(r["max_stall_ms"] for r in runs),
    }
    out = ROOT / "bench" / "results" / "bench_ui_jitter.json"
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))
    app.shutdown()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
