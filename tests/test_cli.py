"""The command line: --version, stats --json and smoke."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from studio import __version__


def _run(*args, env=None):
    return subprocess.run([sys.executable, "main.py", *args], capture_output=True, text=True,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})}, timeout=180)


def test_version():
    out = _run("--version")
    assert out.returncode == 0 and __version__ in out.stdout


def test_stats_json_has_integer_counts(studio_home):
    out = _run("stats", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"notes", "cards", "due", "reviews", "interviews", "drill_attempts"}
    assert all(isinstance(v, int) for v in data.values())
    assert data["cards"] > 0


def test_stats_reports_a_corrupt_database_clearly(studio_home):
    studio_home.mkdir(parents=True, exist_ok=True)
    (studio_home / "studio.sqlite3").write_bytes(b"garbage" * 1000)
    out = _run("stats", "--json")
    assert out.returncode == 2
    assert "damaged" in out.stderr and "Traceback" not in out.stderr


def test_smoke_opens_every_pane(studio_home):
    out = _run("smoke")
    assert out.returncode == 0, out.stderr
    assert "first paint:" in out.stdout
    assert out.stdout.count(": ok") == 7  # today, notes, review, interviews, drills, bench, stats


def test_screenshot_writes_a_png_per_pane(tmp_path):
    out = _run("screenshot", "--out", str(tmp_path / "shots"), "--lang", "zh_CN", "--theme", "dark")
    assert out.returncode == 0, out.stderr
    names = sorted(p.name for p in (tmp_path / "shots").glob("*.png"))
    assert names == ["bench.png", "drills.png", "interviews.png", "notes.png", "review.png", "stats.png", "today.png"]
    assert all((tmp_path / "shots" / n).stat().st_size > 10_000 for n in names)


def test_import_notes_json_and_reimport(studio_home, tmp_path):
    notes = tmp_path / "n"
    notes.mkdir()
    (notes / "a.md").write_text("## 为什么要 fuse？\n少读写显存。\n\nQ: What is HBM?\nA: Stacked DRAM.\n", encoding="utf-8")
    (notes / "bin.md").write_bytes(b"\x00" * 100)
    out = _run("import", "notes", str(notes), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["notes"], data["cards"], data["interviews"]) == (1, 2, 0)
    assert any("bin.md" in p for p in data["problems"])
    again = json.loads(_run("import", "notes", str(notes), "--json").stdout)
    assert again["cards"] == 0


def test_import_missing_path_fails(studio_home):
    out = _run("import", "notes", "/definitely/not/here", "--json")
    assert out.returncode == 2
    assert "no such file" in json.loads(out.stdout)["problems"][0]


def test_export_interviews_markdown(studio_home, tmp_path):
    target = tmp_path / "log.md"
    out = _run("export", "interviews", "--format", "md", "--out", str(target))
    assert out.returncode == 0
    assert target.read_text().startswith("| date | company |")


def test_import_anki_csv_json_reimport_and_history_choice(studio_home, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("#separator:tab\n#html:true\nWhat is <b>NCCL</b>?\tA collectives library\n"
                    "bad line without a tab\n什么是 HBM？\t高带宽显存\n", encoding="utf-8")
    out = _run("import", "anki", str(deck), "--history", "new", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["notes"], data["cards"], data["interviews"]) == (0, 2, 0)
    assert all(isinstance(data[k], int) for k in ("notes", "cards", "interviews"))
    assert len(data["problems"]) == 1 and f"{deck}:4:" in data["problems"][0]
    assert json.loads(_run("import", "anki", str(deck), "--json").stdout)["cards"] == 0


def test_import_anki_bad_package_fails_with_a_clear_line(studio_home, tmp_path):
    bad = tmp_path / "broken.apkg"
    bad.write_bytes(b"PK\x03\x04 truncated")
    out = _run("import", "anki", str(bad))
    assert out.returncode == 2
    assert "broken.apkg" in out.stdout and "nothing imported" in out.stdout and "Traceback" not in out.stderr


def test_export_cards_apkg_and_csv_round_trip(studio_home, tmp_path):
    apkg, csv_file = tmp_path / "all.apkg", tmp_path / "cuda.csv"
    out = _run("export", "cards", "--format", "apkg", "--out", str(apkg))
    assert out.returncode == 0, out.stderr
    exported = int(out.stdout.split()[1])
    assert exported > 0
    out = _run("export", "cards", "--format", "csv", "--out", str(csv_file), "--query", "nosuchwordanywhere")
    assert out.returncode == 0 and out.stdout.startswith("exported 0 cards")
    fresh = {"STUDIO_HOME": str(tmp_path / "fresh-home")}
    data = json.loads(_run("import", "anki", str(apkg), "--json", env=fresh).stdout)
    assert data["problems"] == [] and data["cards"] == 0  # the shipped cards come back to themselves
    assert json.loads(_run("stats", "--json", env=fresh).stdout)["cards"] == exported
    bad = _run("export", "cards", "--format", "csv", "--out", str(csv_file), "--query", 'prop:"r<x')
    assert bad.returncode == 2 and "error:" in bad.stderr


def test_studio_drill_record_stores_an_attempt(studio_home):
    out = subprocess.run([sys.executable, "-m", "studio.drills.cli", "run", "vector_add", "@solution",
                          "--interpret", "--record", "--json"], capture_output=True, text=True,
                         env={**os.environ}, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "recorded attempt" in out.stderr
    stats = json.loads(_run("stats", "--json").stdout)
    assert stats["drill_attempts"] == 1
