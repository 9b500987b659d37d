"""A/B of the start-up import order: `studio smoke` as shipped (the core imported before
PySide6) against the same with PySide6 imported first, and a bare PySide6 window, alternating
in one run so that the machine's load hits all three alike.

    python bench/startup_import_order.py 7
"""

import json, os, re, statistics, subprocess, sys, tempfile, time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import BARE, ROOT  # noqa: E402
home = tempfile.mkdtemp(prefix="studio-bench-")
env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "STUDIO_HOME": home}
subprocess.run([sys.executable, "main.py", "stats"], cwd=ROOT, env=env, capture_output=True, check=True)
def one(cmd):
    e = {**env, "STUDIO_SPAWN_T0": repr(time.time())}
    out = subprocess.run(cmd, capture_output=True, text=True, env=e, cwd=ROOT, timeout=180)
    m = re.search(r"first paint: (\d+) ms", out.stdout)
    assert out.returncode == 0 and m, out.stderr[-2000:]
    return float(m.group(1))
OLD = "import sys, PySide6.QtWidgets\nsys.argv=['studio','smoke']\nfrom studio.app import main\nsys.exit(main())"
res = {"core_first (main.py smoke)": [], "qt_first (PySide6 imported before studio.app)": [], "bare": []}
for _ in range(int(sys.argv[1])):
    res["core_first (main.py smoke)"].append(one([sys.executable, "main.py", "smoke"]))
    res["qt_first (PySide6 imported before studio.app)"].append(one([sys.executable, "-c", OLD]))
    res["bare"].append(one([sys.executable, "-c", BARE]))
out = {"command": f"python bench/startup_import_order.py {sys.argv[1]}", "load_avg": os.getloadavg(), "date": time.strftime("%Y-%m-%d %H:%M:%S"), "runs": res,
       "medians": {k: statistics.median(v) for k, v in res.items()}}
print(json.dumps(out, indent=1))
