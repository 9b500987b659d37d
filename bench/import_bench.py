"""Import benchmark: 1,000 synthetic Markdown notes holding 5,000 cards, plus the same cards
through an .apkg export and import with history.

    python bench/import_bench.py [--out bench/results/import_bench.json]

Target (issue): 1,000 notes with 5,000 extractable cards import in under 20 s. The notes are
generated here (five card shapes, Chinese and English, an interview table every 50 notes),
never taken from anyone's real notes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

WORDS = ("显存 带宽 算子 融合 调度 内核 张量 梯度 量化 通信 kernel tensor memory bandwidth "
         "warp shared latency throughput batch cache triton cuda pipeline").split()


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def make_note(rng: random.Random, i: int) -> str:
    """One note with exactly five cards, one per common shape."""
    parts = [f"---\ntitle: Note {i}\ntags: [bench, t{i % 7}]\n---\n", f"# Topic {i}\n", _words(rng, 80) + "\n"]
    parts.append(f"**Q{i}a: why does {_words(rng, 4)} matter?**\n**A:** {_words(rng, 30)}\n")
    parts.append(f"{_words(rng, 5)} {i}b::{_words(rng, 12)}\n")
    parts.append(f"## 为什么 {_words(rng, 3)} {i}c？\n{_words(rng, 40)}\n\n```python\nx = {i}\n```\n")
    parts.append(f"Q: what is {_words(rng, 3)} {i}d?\nA: {_words(rng, 20)}\n")
    parts.append(f"\nname the {_words(rng, 3)} {i}e\n?\n{_words(rng, 10)}\n")
    if i % 50 == 0:
        parts.append(f"\n| Date | Company | Result |\n|---|---|---|\n| 2025-0{1 + i % 9}-1{i % 9} 10:00 | Co{i} | offer |\n")
    return "\n".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "import_bench.json"))
    parser.add_argument("--notes", type=int, default=1000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="import-bench-"))
    os.environ["STUDIO_HOME"] = str(work / "home")
    from studio.core.collection import Collection
    from studio.core.exporters import export_cards
    from studio.core.importers.anki import apply_cards, plan_cards
    from studio.core.importers.notes_import import apply_import, plan_import

    rng = random.Random(7)
    folder = work / "notes"
    folder.mkdir()
    for i in range(args.notes):
        (folder / f"note-{i:04d}.md").write_text(make_note(rng, i), encoding="utf-8")
    col = Collection.open()
    t0 = time.perf_counter()
    plan = plan_import([folder])
    t_plan = time.perf_counter() - t0
    summary = apply_import(col, plan, year=2025)
    t_notes = time.perf_counter() - t0
    t1 = time.perf_counter()
    again = apply_import(col, plan_import([folder]), year=2025)
    t_reimport = time.perf_counter() - t1
    apkg = work / "cards.apkg"
    t2 = time.perf_counter()
    exported = export_cards(col, "apkg", apkg)
    t_export = time.perf_counter() - t2
    col.close()
    fresh = Collection.open(work / "fresh.sqlite3")
    t3 = time.perf_counter()
    anki = apply_cards(fresh, plan_cards(apkg), history="keep")
    t_anki = time.perf_counter() - t3
    fresh.close()
    result = {
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"description": "2-core VM" if os.cpu_count() == 2 else f"{os.cpu_count()}-core machine",
                    "cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "notes": summary.notes, "cards": summary.cards, "interviews": summary.interviews,
        "problems": len(summary.problems),
        "plan_s": round(t_plan, 2), "notes_import_s": round(t_notes, 2), "target_s": 20,
        "passed": summary.cards >= 5000 and t_notes < 20,
        "reimport_s": round(t_reimport, 2), "reimport_new_cards": again.cards,
        "apkg_export_s": round(t_export, 2), "apkg_cards": exported.cards,
        "apkg_import_s": round(t_anki, 2), "apkg_imported": anki.cards,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
