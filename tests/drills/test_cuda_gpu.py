"""CUDA C++ solutions built and run for real: every reference CUDA solution passes, every
starter fails cleanly, each kind of bad kernel gets its own verdict, a second run loads the
build from the cache. Marked `gpu`: skipped without a GPU and a CUDA toolkit (CI); run on a
GPU machine with `pytest -m gpu tests/drills/test_cuda_gpu.py` (bench/cuda_drills_gpu.sh
builds everything in parallel first, so these runs hit the cache). Results we saw:
bench/results/cuda_drills_gpu.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.drills import cli
from studio.drills.catalog import load_catalog

pytestmark = pytest.mark.gpu

BAD = Path(__file__).parent / "cuda_bad"
WITH_SOLUTION = sorted(d.id for d in load_catalog() if d.solution_cuda is not None)
ALL = sorted(d.id for d in load_catalog() if not d.error)


def _run(capsys, drill: str, file: str, *extra: str) -> dict:
    code = cli.main(["run", drill, file, "--json", "--timeout", "300", *extra])
    doc = json.loads(capsys.readouterr().out)
    doc["_exit"] = code
    return doc


def test_the_reference_solutions_cover_what_the_issue_asks():
    assert {"vector_add", "row_sum", "transpose", "softmax", "layernorm", "rmsnorm", "matmul"} <= set(WITH_SOLUTION)


@pytest.mark.parametrize("drill", WITH_SOLUTION)
def test_reference_cuda_solution_passes_every_case(capsys, drill):
    doc = _run(capsys, drill, "@solution-cuda")
    failed = [(c["name"], c["error"]) for c in doc["cases"] if not c["passed"]]
    assert doc["status"] == "passed", (doc.get("error"), failed, doc["flags"])
    assert doc["lang"] == "cuda" and doc["builds"], "no build was reported"
    assert not [f for f in doc["flags"] if f.get("blocking")]


@pytest.mark.parametrize("drill", ALL)
def test_every_starter_builds_and_fails_cleanly(capsys, drill):
    doc = _run(capsys, drill, "@starter-cuda")
    assert doc["lang"] == "cuda" and not doc["passed"]
    assert doc["status"] not in ("compile_error", "harness_error", "wrong_signature", "missing_entry"), doc.get("error")
    messages = " ".join(c["error"] or "" for c in doc["cases"]) + json.dumps(doc.get("error"))
    assert "allocate the output and launch your kernel" in messages


def test_a_second_run_loads_the_build_from_the_cache(capsys):
    _run(capsys, "vector_add", "@solution-cuda")
    doc = _run(capsys, "vector_add", "@solution-cuda")
    assert doc["builds"] and all(b["cached"] for b in doc["builds"]), doc["builds"]


def test_compile_error_on_the_users_line(capsys):
    doc = _run(capsys, "vector_add", str(BAD / "compile_error.cu"))
    assert doc["status"] == "compile_error" and doc["_exit"] == 2
    assert doc["error"]["line"] == 9 and doc["error"]["file"].endswith("compile_error.cu")
    assert doc["error"]["message"].startswith("compile_error.cu:9")
    assert "more error" in doc["error"]["message"]
    # The missing ";" after the launch on line 16 is seen at the next statement, line 17.
    assert 'compile_error.cu:17: error: expected a ";"' in doc["error"]["traceback"]


def test_wrong_signature_is_caught_before_compiling(capsys):
    doc = _run(capsys, "vector_add", str(BAD / "wrong_signature.cu"))
    assert doc["status"] == "wrong_signature" and doc["error"]["line"] == 6
    assert not doc["builds"]


def test_invalid_launch_configuration_is_a_cuda_error_at_the_launch(capsys):
    doc = _run(capsys, "vector_add", str(BAD / "invalid_launch.cu"))
    assert doc["status"] == "cuda_error", doc.get("error")
    # CUDA 13 says "invalid argument" for a 2048-thread block; older toolkits "invalid configuration".
    assert "invalid" in doc["error"]["message"]
    assert "1024 threads" in doc["error"]["message"] and doc["error"]["line"] == 15


def test_out_of_bounds_write_is_a_cuda_error_and_the_run_ends(capsys):
    doc = _run(capsys, "vector_add", str(BAD / "oob_write.cu"))
    assert doc["status"] == "cuda_error", doc.get("error")
    assert "outside its buffers" in doc["error"]["message"]


def test_a_kernel_that_never_returns_is_killed_at_the_time_limit(capsys):
    code = cli.main(["run", "vector_add", str(BAD / "hangs.cu"), "--json", "--timeout", "20"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 2 and doc["status"] == "timeout", doc.get("error")


def test_a_torch_check_of_the_user_names_its_line(capsys):
    doc = _run(capsys, "vector_add", str(BAD / "torch_check.cu"))
    assert not doc["passed"]
    errors = [c["error"] for c in doc["cases"] if c["error"]]
    assert errors and "expected a 7-D tensor" in errors[0] and "line 7" in errors[0], errors[:1]


def test_cublas_doing_the_work_is_flagged(capsys):
    doc = _run(capsys, "matmul", str(BAD / "calls_cublas.cu"))
    assert not doc["passed"]
    assert {"calls_library", "calls_reference"} & {f["name"] for f in doc["flags"]}, doc["flags"]


def test_no_kernel_of_its_own_is_flagged(capsys):
    doc = _run(capsys, "vector_add", str(BAD / "no_kernel.cu"))
    assert not doc["passed"]
    assert "no_cuda_kernel" in {f["name"] for f in doc["flags"]}, doc["flags"]


def test_python_load_inline_solution_passes(capsys):
    doc = _run(capsys, "vector_add", str(BAD / "inline_add.py"))
    assert doc["lang"] == "cuda" and doc["status"] == "passed", (doc.get("error"), doc["flags"])
    assert doc["builds"]


def test_warnings_pass_and_are_reported(capsys):
    doc = _run(capsys, "vector_add", str(BAD / "warns.cu"))
    assert doc["status"] == "passed", doc.get("error")
    assert sum(b["warnings"] for b in doc["builds"]) >= 1, doc["builds"]
