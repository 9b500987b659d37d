"""Issue #16's "done when": a folder of hostile files imported one by one, as a user would.

Each file goes through the real CLI in a child process (`studio import anki|notes FILE`),
with default limits. Every refusal must be one plain message naming the file (never a
traceback), no file may take long, and the collection must change only by what was
accepted: a refused file adds nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from studio.core import dbcheck
from tests.core.importers.test_anki import CARDS, NOTES, REVIEWS, make_apkg
from tests.core.importers.test_anki_limits import MB, _bomb

ROOT = Path(__file__).resolve().parents[1]
TIME_BOUND_S = 60  # per file, on a slow 2-core CI box; the old code took minutes or never ended


def _studio(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "STUDIO_HOME": str(home), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=TIME_BOUND_S * 2)


def _hostile_folder(folder: Path) -> dict[str, tuple[str, bool]]:
    """name -> (importer, accepted?)"""
    folder.mkdir()
    files: dict[str, tuple[str, bool]] = {}
    _bomb(folder, "collection.anki21b", 64 * MB, "zstd-bomb.apkg")          # ratio past 200:1
    files["zstd-bomb.apkg"] = ("anki", False)
    _bomb(folder, "collection.anki2", 48 * MB, "deflate-bomb.apkg")
    files["deflate-bomb.apkg"] = ("anki", False)
    (folder / "cloze-trap.csv").write_text("#separator:Comma\n" + "{{c1::" * 6000 + ",answer\n", encoding="utf-8")
    files["cloze-trap.csv"] = ("anki", True)
    (folder / "tag-trap.csv").write_text("#separator:Comma\n" + "<pre>" * 20000 + "<!--" * 5000 + ",x\n"
                                         + "What is HBM?,Stacked DRAM\n", encoding="utf-8")
    files["tag-trap.csv"] = ("anki", True)
    make_apkg(folder, "good.apkg", notes=NOTES, cards=CARDS, revlog=REVIEWS)
    files["good.apkg"] = ("anki", True)
    (folder / "corrupt.apkg").write_bytes(b"PK\x03\x04" + os.urandom(4000))
    files["corrupt.apkg"] = ("anki", False)
    (folder / "deep.md").write_text("# Deep\n\n" + "".join("  " * i + "- level\n" for i in range(600))
                                    + "\n**Q: why nest?**\n\n**A:** to test.\n", encoding="utf-8")
    files["deep.md"] = ("notes", True)
    (folder / "latin1.md").write_bytes("# Notizen\n\nQ: Was ist ein Warp?\nA: 32 Fäden, die gemeinsam "
                                       "ausgeführt werden; Größe über Schritte.\n".encode("latin-1"))
    files["latin1.md"] = ("notes", True)  # read as cp1252/latin-1 (or refused if unsure), never as GB18030
    (folder / "binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00" * 300)
    files["binary.md"] = ("notes", False)
    (folder / "twice.md").write_text("Q: What is NVLink?\nA: A link.\n\nQ: What is NVLink?\nA: A 900 GB/s link.\n",
                                     encoding="utf-8")
    files["twice.md"] = ("notes", True)
    (folder / "remote.md").write_text("# Remote\n\n<img src='http://example.com/x.png'>\n\nQ: ok?\nA: yes\n",
                                      encoding="utf-8")
    files["remote.md"] = ("notes", True)
    (folder / "bold-trap.md").write_text("**" + "a " * 20000 + "\n\nQ: still?\nA: yes\n", encoding="utf-8")
    files["bold-trap.md"] = ("notes", True)
    return files


def test_a_folder_of_hostile_files_imported_one_by_one(tmp_path):
    home = tmp_path / "home"
    folder = tmp_path / "hostile"
    files = _hostile_folder(folder)
    assert _studio(home, "stats", "--json").returncode == 0
    db = home / "studio.sqlite3"
    for name, (importer, accepted) in files.items():
        before = dbcheck.count_rows(db)
        started = time.monotonic()
        out = _studio(home, "import", importer, str(folder / name), "--json")
        took = time.monotonic() - started
        assert took < TIME_BOUND_S, f"{name} took {took:.0f} s"
        assert "Traceback" not in out.stderr and "Traceback" not in out.stdout, f"{name}: {out.stderr[-2000:]}"
        after = dbcheck.count_rows(db)
        if accepted:
            assert out.returncode == 0, f"{name}: {out.stderr}"
            summary = json.loads(out.stdout)
            assert summary["cards"] + summary["cards_updated"] > 0 or summary.get("notes"), name
            assert "gb18030" not in json.dumps(summary.get("encodings", {})).lower(), name
        else:
            assert out.returncode == 2, f"{name}: {out.returncode} {out.stdout} {out.stderr}"
            message = (out.stdout + out.stderr).strip()
            assert message and (name in message or str(folder / name) in message), f"{name}: {message}"
            assert after == before, f"{name} changed the collection though it was refused"
    assert dbcheck.run_check(db, full=True).ok
