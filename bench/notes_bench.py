"""Notes benchmarks: render a 5,000-line note, search 2,000 notes (~10 MB), index 1,000 files.

    STUDIO_HOME=/tmp/bench python bench/notes_bench.py [--out bench/results/notes_<machine>.json]

Targets (issue): render < 300 ms; search median < 20 ms; indexing 1,000 files < 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

WORDS = ("显存 带宽 算子 融合 调度 内核 张量 梯度 量化 通信 kernel tensor memory bandwidth "
         "warp shared latency throughput batch cache triton cuda pipeline").split()


def _paragraph(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def big_note(lines: int = 5000) -> str:
    rng = random.Random(1)
    out: list[str] = ["---", "title: 基准笔记", "tags: [bench]", "---"]
    i = 0
    while len(out) < lines:
        i += 1
        out += [f"## 小节 {i}", "", _paragraph(rng, 30), "", "- [ ] 待办 " + _paragraph(rng, 5),
                "- [x] 完成", "", "| 列 | 值 |", "|:-|-:|", f"| a{i} | {i} |", "", "```python",
                f"def f{i}(x):", "    return x * 2", "```", "", "> " + _paragraph(rng, 10), ""]
    return "\n".join(out[:lines])


def bench_render() -> dict:
    from studio.core.markdown_render import render_markdown

    text = big_note()
    render_markdown(text)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        render_markdown(text, copy_label="Copy")
        times.append((time.perf_counter() - t0) * 1000)
    return {"lines": len(text.splitlines()), "median_ms": round(statistics.median(times), 1)}


def make_folder(root: Path, files: int, size: int) -> None:
    rng = random.Random(2)
    root.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        body = "\n\n".join(_paragraph(rng, 60) for _ in range(size // 400))
        (root / f"note-{i:04d}.md").write_text(f"# 笔记 {i}\n\n{body}\n", encoding="utf-8")


def bench_index_and_search(tmp: Path) -> dict:
    from studio.core.collection import Collection
    from studio.core.notes import register_folder, scan_folder
    from studio.core.search import search_notes

    col = Collection(__import__("studio.core.db", fromlist=["open_database"]).open_database(
        tmp / "bench.sqlite3", backups=tmp / "backups"))
    small = tmp / "thousand"
    make_folder(small, 1000, 2000)
    t0 = time.perf_counter()
    scan_folder(col, register_folder(col, small))
    index_s = time.perf_counter() - t0
    big = tmp / "twothousand"
    make_folder(big, 1000, 7000)  # with the first 1,000: 2,000 notes, about 10 MB in all
    scan_folder(col, register_folder(col, big))
    total_mb = sum(p.stat().st_size for p in tmp.rglob("*.md")) / 1e6
    results = {}
    for query in ("显存", "内核 张量", "bandwidth", "shared latency"):
        search_notes(col, query, limit=20)
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            search_notes(col, query, limit=20)
            times.append((time.perf_counter() - t0) * 1000)
        results[query] = round(statistics.median(times), 2)
    col.close()
    return {"index_1000_files_s": round(index_s, 2), "notes": 2000, "corpus_mb": round(total_mb, 1),
            "search_median_ms": results}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    parser.add_argument("--machine", default=f"{platform.node()} {os.cpu_count()} cores")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = {"machine": args.machine, "python": platform.python_version(),
                  "render_5000_lines": bench_render(), **bench_index_and_search(Path(tmp))}
    text = json.dumps(result, ensure_ascii=False, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
