"""Cold start to first painted window, against a bare PySide6 window as baseline.

Each run is a fresh process; the parent passes its wall-clock spawn time in
STUDIO_SPAWN_T0 and the child reports the time until its window has painted. Both the
app (`studio smoke`, which paints the main window first, then opens the database, reports
when Today shows its figures, then opens every pane) and a
bare QMainWindow are measured in the same run, alternating, and the medians recorded.

    python bench/startup.py [--runs 9] [--out bench/results/startup.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE = (
    "import os, time\n"
    "from PySide6.QtWidgets import QApplication, QMainWindow, QLabel\n"
    "app = QApplication([])\n"
    "w = QMainWindow(); w.setCentralWidget(QLabel('bare')); w.resize(1280, 800); w.show(); w.repaint()\n"
    "app.processEvents()\n"
    "print(f'first paint: {(time.time() - float(os.environ[\"STUDIO_SPAWN_T0\"])) * 1000:.0f} ms')\n"
)


def _one(cmd: list[str], env: dict, filled: list | None = None) -> float:
    """First paint (ms from spawn); with `filled`, also when Today showed the collection's
    figures (the app paints its window before opening the database)."""
    env = {**env, "STUDIO_SPAWN_T0": repr(time.time())}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    match = re.search(r"first paint: (\d+) ms", out.stdout)
    if out.returncode != 0 or not match:
        raise RuntimeError(f"{cmd}: exit {out.returncode}\n{out.stdout}\n{out.stderr}")
    if filled is not None:
        data = re.search(r"today filled: (\d+) ms", out.stdout)
        filled.append(float(data.group(1)) if data else None)
    return float(match.group(1))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "startup.json"))
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="studio-bench-")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "STUDIO_HOME": home}
    subprocess.run([sys.executable, "main.py", "stats"], cwd=ROOT, env=env, capture_output=True, check=True)
    app_ms, bare_ms, filled_ms = [], [], []
    for _ in range(args.runs):
        app_ms.append(_one([sys.executable, "main.py", "smoke"], env, filled_ms))
        bare_ms.append(_one([sys.executable, "-c", BARE], env))
    result = {
        "what": "cold start (process spawn) to first painted main window, offscreen",
        "command": f"python bench/startup.py --runs {args.runs}",
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "runs": args.runs,
        "app_ms": app_ms,
        "bare_pyside6_ms": bare_ms,
        "today_filled_ms": filled_ms,
        "today_filled_median_ms": (statistics.median([v for v in filled_ms if v is not None])
                                   if any(v is not None for v in filled_ms) else None),
        "app_median_ms": statistics.median(app_ms),
        "bare_median_ms": statistics.median(bare_ms),
        "ratio_app_to_bare": round(statistics.median(app_ms) / statistics.median(bare_ms), 2),
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: v for k, v in result.items() if not k.endswith("_ms") or "median" in k}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
