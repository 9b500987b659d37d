"""Drill attempts: stored with code and bench points, personal best, per-drill summaries."""

from __future__ import annotations

from studio.core import drill_attempts as da


def _result(status="passed", gbps=(100.0, 200.0), drill="softmax"):
    return {"drill": drill, "mode": "gpu", "device": "NVIDIA H100", "status": status,
            "bench": {"points": [{"size": [4096, n], "dtype": "float16", "ms": 0.1, "p20": 0.09, "p80": 0.11,
                                  "ref_ms": 0.2, "gbps": g, "pct_of_peak": g / 30, "passed": True}
                                 for n, g in zip((1024, 4096), gbps)]}}


def test_record_and_list_with_points(collection):
    attempt_id = da.record_attempt(collection, _result(), "def softmax(x): ...", time_to_pass_s=321.0)
    rows = da.list_attempts(collection, "softmax")
    assert [r.id for r in rows] == [attempt_id]
    assert rows[0].best_gbps == 200.0 and rows[0].passed and rows[0].code.startswith("def softmax")
    assert [p.size for p in rows[0].points] == ["4096x1024 float16", "4096x4096 float16"]
    assert collection.counts()["drill_attempts"] == 1


def test_personal_best_ignores_failed_attempts(collection):
    da.record_attempt(collection, _result(gbps=(50.0, 150.0)), "a")
    best = da.record_attempt(collection, _result(gbps=(80.0, 250.0)), "b")
    da.record_attempt(collection, _result(status="failed", gbps=(900.0, 999.0)), "c")
    assert da.personal_best(collection, "softmax").id == best
    summary = da.summaries(collection)["softmax"]
    assert (summary.attempts, summary.solved) == (3, True)


def test_interpreter_attempt_without_bench(collection):
    da.record_attempt(collection, {"drill": "rmsnorm", "mode": "interpreter", "status": "failed",
                                   "bench": None}, "x")
    summary = da.summaries(collection)["rmsnorm"]
    assert (summary.solved, summary.best_gbps) == (False, None)
    assert da.personal_best(collection, "rmsnorm") is None
