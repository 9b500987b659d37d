"""studio-bench run: the user's own kernel checked across its spec's sweep, in the drill engine.

Runs under Triton's interpreter (no GPU in CI): correctness for every point, timing off.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from studio.drills import bench_cli

FIXTURES = Path(__file__).resolve().parent / "bench_fixtures"


def bench(capsys, *args) -> tuple[int, dict]:
    code = bench_cli.main(["run", *args, "--interpret", "--json", "--timeout", "120"])
    return code, json.loads(capsys.readouterr().out)


def test_a_correct_triton_kernel_passes_every_point(capsys):
    code, doc = bench(capsys, f"{FIXTURES / 'row_scale.py'}:row_scale")
    assert code == 0 and doc["status"] == "passed"
    assert [(p["size"], p["dtype"]) for p in doc["points"]] == [
        ([3, 33], "float32"), ([5, 100], "float32"), ([3, 33], "float16"), ([5, 100], "float16")]
    assert all(p["passed"] and p["max_abs_err"] is not None for p in doc["points"])
    assert doc["mode"] == "interpreter" and "GPU" in (doc["timing_note"] or "")
    assert doc["spec"].endswith("row_scale.bench.py") and doc["protocol"] == "engine"


def test_a_wrong_kernel_fails_with_the_first_bad_element(capsys):
    code, doc = bench(capsys, f"{FIXTURES / 'row_scale.py'}:row_scale_wrong",
                      "--spec", str(FIXTURES / "row_scale.bench.py"))
    assert code == 1 and doc["status"] == "failed"
    assert not any(p["passed"] for p in doc["points"])
    assert "out of tolerance" in doc["points"][0]["error"] and "first bad at" in doc["points"][0]["error"]


def test_a_kernel_raising_on_one_size_fails_that_size_and_the_sweep_goes_on(capsys):
    code, doc = bench(capsys, f"{FIXTURES / 'row_scale.py'}:row_scale_raises_on_wide",
                      "--spec", str(FIXTURES / "row_scale.bench.py"))
    assert code == 1
    by_size = {(tuple(p["size"]), p["dtype"]): p for p in doc["points"]}
    assert by_size[((3, 33), "float32")]["passed"] and by_size[((3, 33), "float16")]["passed"]
    assert "only handles rows up to 64" in by_size[((5, 100), "float32")]["error"]


def test_a_torch_only_kernel_is_benched_too(capsys):
    code, doc = bench(capsys, f"{FIXTURES / 'row_scale.py'}:row_scale_torch",
                      "--spec", str(FIXTURES / "row_scale.bench.py"))
    assert code == 0 and all(p["passed"] for p in doc["points"])


def test_spec_errors_name_file_and_line_and_exit_2(capsys, tmp_path):
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    spec = tmp_path / "row_scale.bench.py"
    spec.write_text((FIXTURES / "row_scale.bench.py").read_text().replace("def reference(x, s):",
                                                                          "def reference(x, s)"))
    code, doc = bench(capsys, f"{kernel}:row_scale")
    assert code == 2 and doc["status"] == "bad_drill"
    assert "syntax error" in doc["error"]["message"]
    assert doc["error"]["file"] == str(spec.resolve()) and doc["error"]["line"] == 14


def test_a_spec_whose_inputs_fail_at_one_size_fails_only_that_point(capsys, tmp_path):
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    (tmp_path / "row_scale.bench.py").write_text((FIXTURES / "row_scale.bench.py").read_text().replace(
        "    x = torch.randn(size, dtype=dtype, device=device)",
        "    if size[1] == 100:\n        raise MemoryError('CUDA out of memory (as a huge size would)')\n"
        "    x = torch.randn(size, dtype=dtype, device=device)"))
    code, doc = bench(capsys, f"{kernel}:row_scale")
    assert code == 1
    failed = [p for p in doc["points"] if not p["passed"]]
    assert len(failed) == 2 and all("out of memory" in p["error"] for p in failed)
    assert all(p["passed"] for p in doc["points"] if p["size"] == [3, 33])


@pytest.mark.parametrize("target, message", [
    ("no_colon.py", "FILE:FUNC"),
    ("/nonexistent/k.py:f", "no such kernel file"),
])
def test_bad_targets_are_messages(capsys, target, message):
    assert bench_cli.main(["run", target]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_spec_says_where_it_looked(capsys, tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("def f(x):\n    return x\n")
    assert bench_cli.main(["run", f"{kernel}:f"]) == 2
    assert str(tmp_path / "k.bench.py") in capsys.readouterr().err


def test_runs_are_kept_listed_and_compared(capsys):
    target = f"{FIXTURES / 'row_scale.py'}:row_scale_torch"
    spec = ["--spec", str(FIXTURES / "row_scale.bench.py")]
    code, first = bench(capsys, target, *spec)
    assert code == 0 and isinstance(first["run_id"], int)
    code, second = bench(capsys, target, *spec, "--compare", str(first["run_id"]))
    assert second["compare"]["run_id"] == first["run_id"]
    assert second["compare"]["points"] == []  # the interpreter times nothing to compare
    assert bench_cli.main(["history", target, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in listed] == [second["run_id"], first["run_id"]]
    assert bench_cli.main(["run", target, *spec, "--compare", "999"]) == 2
    assert "no bench run #999" in capsys.readouterr().err


def test_without_the_database_layer_the_bench_runs_and_says_history_is_off(capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_sqlalchemy(name, *args, **kwargs):
        if name.startswith("studio.core"):
            raise ImportError("No module named 'sqlalchemy'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_sqlalchemy)
    code = bench_cli.main(["run", f"{FIXTURES / 'row_scale.py'}:row_scale_torch", "--spec",
                           str(FIXTURES / "row_scale.bench.py"), "--interpret", "--json"])
    captured = capsys.readouterr()
    assert code == 0 and "not kept in the history" in captured.err
    assert "run_id" not in json.loads(captured.out)
    assert bench_cli.main(["history", str(FIXTURES / "row_scale.py")]) == 2


LOST = '''

def row_scale_loses_wide_rows(x, s):
    """Hangs on wide float32 rows and crashes its process on wide float16 rows."""
    if x.shape[1] > 64 and x.dtype == torch.float32:
        while True: pass  # noqa: E701 - one line: a stack sampled anywhere in the loop names it
    if x.shape[1] > 64:
        import ctypes
        ctypes.string_at(0)
    return row_scale(x, s)
'''


def test_a_kernel_that_hangs_or_crashes_at_one_size_fails_that_point_and_the_sweep_goes_on(capsys, tmp_path):
    kernel = tmp_path / "row_scale.py"
    kernel.write_text((FIXTURES / "row_scale.py").read_text() + LOST)
    source = kernel.read_text().splitlines()
    hang_line = next(i for i, line in enumerate(source, 1) if line.startswith("        while True: pass"))
    crash_line = source.index("        ctypes.string_at(0)") + 1
    code, doc = bench(capsys, f"{kernel}:row_scale_loses_wide_rows", "--spec", str(FIXTURES / "row_scale.bench.py"),
                      "--point-timeout", "5")
    assert code == 2 and doc["status"] == "timeout"
    by_size = {(tuple(p["size"]), p["dtype"]): p for p in doc["points"]}
    assert len(by_size) == 4   # every point reported, the ones after each lost point too
    assert by_size[((3, 33), "float32")]["passed"] and by_size[((3, 33), "float16")]["passed"]
    hung, crashed = by_size[((5, 100), "float32")], by_size[((5, 100), "float16")]
    assert not hung["passed"] and "time limit" in hung["error"] and f"row_scale.py, line {hang_line}" in hung["error"]
    assert not crashed["passed"] and "SIGSEGV" in crashed["error"]
    assert f"row_scale.py, line {crash_line}" in crashed["error"]
    assert "2 of 4 points" in doc["error"]["message"]
    assert doc["error"]["file"] == str(kernel) and doc["error"]["line"] == hang_line


def test_the_json_document_has_every_field_of_every_point_in_microseconds_too(tmp_path):
    from studio.drills.result import BenchPoint, CaseResult, RunResult

    result = RunResult(drill="bench:k.py", file=str(tmp_path / "k.py"), mode="gpu", device="H100",
                       status="passed")
    result.bench.requested = result.bench.available = True
    result.bench.copy_gbps, result.bench.matmul_tflops = 3000.0, 700.0
    for width, passed in ((1024, True), (2048, False)):
        result.cases.append(CaseResult(name=f"{width}", passed=passed, shape=[4096, width], dtype="float16",
                                       max_abs_err=0.0 if passed else None, error=None if passed else "boom"))
    result.bench.points.append(BenchPoint(
        size=[4096, 1024], dtype="float16", ms=0.010, p20=0.009, p80=0.011, gbps=1600.0, tflops=0.4,
        pct_of_peak=53.3, pct_of_tflops_peak=0.06, bytes=16 << 20, flops=4 << 20, speedup=1.5,
        baselines={"torch": {"ms": 0.015, "p20": 0.014, "p80": 0.016, "gbps": 1100.0},
                   "raises": {"error": "RuntimeError: no"}}))
    doc = bench_cli.summary(result, tmp_path / "k.bench.py", "engine")
    timed, failed = doc["points"]
    assert set(timed) == set(failed)   # the same fields everywhere, null where there is nothing
    assert timed["median_us"] == pytest.approx(10.0) and timed["p20_us"] == pytest.approx(9.0)
    assert timed["p80_us"] == pytest.approx(11.0)
    assert timed["gbps"] == 1600.0 and timed["tflops"] == 0.4 and timed["pct_of_peak"] == 53.3
    assert timed["baselines"]["torch"]["median_us"] == pytest.approx(15.0)
    assert timed["baselines"]["torch"]["p80_us"] == pytest.approx(16.0)
    assert timed["baselines"]["raises"]["median_us"] is None and "no" in timed["baselines"]["raises"]["error"]
    assert failed["median_us"] is None and failed["baselines"] == {} and failed["error"] == "boom"
    assert doc["peaks"] == {"copy_gbps": 3000.0, "matmul_tflops": 700.0}
    json.dumps(doc, allow_nan=False)


def test_the_point_time_limit_reaches_the_judge(tmp_path):
    request = bench_cli.bench_request(tmp_path / "k.py", "f", tmp_path / "k.bench.py", point_timeout_s=7.5)
    assert request.problem["point_timeout_s"] == 7.5
