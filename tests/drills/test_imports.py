"""The drill package's parent side loads no torch, triton or Qt (the GUI process imports it).

Checked in a fresh interpreter so modules imported by other tests cannot mask a
violation; the harness package itself must also be import-free until its modules load.
"""

from __future__ import annotations

import json
import subprocess
import sys

PARENT_MODULES = ("studio.drills", "studio.drills.catalog", "studio.drills.runner",
                  "studio.drills.cli", "studio.drills.events", "studio.drills.result",
                  "studio.drills.harness", "studio.drills.targets", "studio.drills.targets.local",
                  "studio.drills.targets.ssh")


def _heavy_modules_after(code: str) -> list[str]:
    probe = code + ("\nimport sys, json\nprint(json.dumps(sorted({m.split('.')[0] for m in "
                    "sys.modules} & {'torch', 'triton', 'PySide6', 'numpy'})))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_parent_side_imports_no_torch_triton_or_qt():
    assert _heavy_modules_after("import " + ", ".join(PARENT_MODULES)) == []


def test_listing_the_catalog_loads_no_torch():
    code = "from studio.drills.catalog import load_catalog\nassert len(load_catalog()) >= 4"
    assert _heavy_modules_after(code) == []


def test_cli_list_loads_no_torch():
    code = ("import io, contextlib\nfrom studio.drills import cli\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    assert cli.main(['list']) == 0")
    assert _heavy_modules_after(code) == []
