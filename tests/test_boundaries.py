"""Layer rules: core and drills load no Qt; the GUI process never loads torch or triton.

Each check runs in a fresh interpreter, so modules loaded by other tests cannot hide
(or fake) a violation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

FORBIDDEN = ("PySide6", "torch", "triton")
PROBE_TAIL = (
    "\nimport sys, json\n"
    f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(FORBIDDEN)!r})), flush=True)\n"
    # End like the app does (studio.ui.application._exit_now): no interpreter finalisation.
    "import os; os._exit(0)\n"
)


def _loaded_after(code: str, env=None) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code + PROBE_TAIL], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_core_imports_no_qt_torch_or_triton():
    code = ("import pkgutil, importlib, studio.core\n"
            "for m in pkgutil.walk_packages(studio.core.__path__, 'studio.core.'):\n"
            "    if '.migrations' not in m.name:\n"
            "        importlib.import_module(m.name)")
    assert _loaded_after(code) == []


def test_drills_parent_side_imports_no_qt_torch_or_triton():
    code = "import studio.drills.catalog, studio.drills.runner, studio.drills.cli"
    assert _loaded_after(code) == []


def test_gui_process_never_imports_torch_or_triton(studio_home):
    code = (
        "from studio.core.collection import Collection\n"
        "from studio.core.settings import Settings\n"
        "from studio.ui.application import StudioApp, _drain\n"
        "from studio.ui.main_window import PANE_IDS\n"
        "app = StudioApp(Collection.open(), Settings(), language='en', theme_name='light')\n"
        "app.window.show()\n"
        "for pane in PANE_IDS:\n"
        "    app.window.show_pane(pane); _drain(app)\n"
        "app.shutdown()\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    loaded = _loaded_after(code, env)
    assert "PySide6" in loaded  # the probe really built the GUI
    assert "torch" not in loaded and "triton" not in loaded
