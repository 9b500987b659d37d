"""Bench history: runs kept with their provenance, and point-by-point comparison with noise."""

from __future__ import annotations

import json
import subprocess

from studio.core import bench_runs


def point(size, ms, p20, p80, dtype="float16", passed=True):
    return {"size": size, "dtype": dtype, "ms": ms, "p20": p20, "p80": p80, "passed": passed}


def test_compare_marks_only_changes_beyond_the_spread():
    old = [point([1024], 0.010, 0.0098, 0.0102), point([4096], 0.040, 0.039, 0.041),
           point([8192], 0.080, 0.079, 0.081), point([16384], 0.2, 0.19, 0.21, passed=False)]
    new = [point([1024], 0.0101, 0.0099, 0.0103),   # within noise
           point([4096], 0.030, 0.0295, 0.0305),    # faster, ranges apart
           point([8192], 0.090, 0.089, 0.091),      # slower
           point([16384], 0.1, 0.09, 0.11),         # failed before: not compared
           point([32768], 0.3, 0.29, 0.31)]         # new size: not compared
    changes = {tuple(c.size): c for c in bench_runs.compare_points(old, new)}
    assert set(changes) == {(1024,), (4096,), (8192,)}
    assert changes[(1024,)].verdict == "same"
    assert changes[(4096,)].verdict == "faster" and abs(changes[(4096,)].speedup - 4 / 3) < 1e-9
    assert changes[(8192,)].verdict == "slower" and changes[(8192,)].speedup < 1


def test_runs_are_kept_with_hash_and_git_commit(collection, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    kernel, spec = repo / "k.py", repo / "k.bench.py"
    kernel.write_text("def f(x):\n    return x\n")
    spec.write_text("sizes = [(4,)]\n")
    git = ["git", "-C", str(repo), "-c", "user.email=t@e", "-c", "user.name=t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "k"], check=True)
    doc = {"status": "passed", "mode": "gpu", "device": "H100", "protocol": "engine",
           "versions": {"torch": "2.11"}, "points": [point([4], 0.01, 0.009, 0.011)]}
    first = bench_runs.record_run(collection, doc, kernel, "f", spec)
    kernel.write_text("def f(x):\n    return x * 1\n")
    second = bench_runs.record_run(collection, doc, kernel, "f", spec)
    runs = bench_runs.list_runs(collection, kernel)
    assert [r.id for r in runs] == [second, first]
    assert runs[1].git_commit and len(runs[1].git_commit) == 40 and runs[1].git_dirty is False
    assert runs[0].git_dirty is True and runs[0].content_hash != runs[1].content_hash
    assert bench_runs.run_points(runs[0]) == doc["points"]
    assert json.loads(runs[0].versions_json) == {"torch": "2.11"}
    assert "+dirty" in bench_runs.describe_run(runs[0])


def test_outside_git_there_is_no_commit(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("x = 1\n")
    assert bench_runs.git_info(kernel) == (None, None)
