"""Every visible string is translated to Chinese and the shipped .qm files are current."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import i18n as tool  # noqa: E402


@pytest.mark.parametrize("module", tool.ui_modules(), ids=lambda p: p.stem)
def test_module_strings_all_translated(module, tmp_path):
    shipped = tool.ts_path(module)
    fresh = tmp_path / shipped.name
    if shipped.exists():
        shutil.copy(shipped, fresh)
    tool.lupdate(module, fresh)
    missing = tool.unfinished(fresh)
    assert missing == {}, f"untranslated in {module.name}: {missing} (run tools/i18n.py update/apply/release)"


@pytest.mark.parametrize("ts", sorted(tool.I18N.glob("*_zh_CN.ts")), ids=lambda p: p.stem)
def test_qm_is_compiled_from_current_ts(ts, tmp_path):
    out = tmp_path / ts.with_suffix(".qm").name
    subprocess.run(["pyside6-lrelease", str(ts), "-qm", str(out)], check=True, capture_output=True)
    assert ts.with_suffix(".qm").read_bytes() == out.read_bytes(), f"{ts.name}: run tools/i18n.py release"
