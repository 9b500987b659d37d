"""studio-drill: list, run, exit codes, the JSON document and the on_result hook."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from studio.drills import cli
from studio.drills.result import BenchPoint, RunResult

from .conftest import BAD_KERNELS, DRILL_IDS


def _run_cli(capsys, *argv, **kwargs):
    code = cli.main(list(argv), **kwargs)
    return code, capsys.readouterr().out


def test_list_plain_and_json(capsys):
    code, out = _run_cli(capsys, "list")
    assert code == 0 and all(d in out for d in DRILL_IDS)
    code, out = _run_cli(capsys, "list", "--json")
    listing = {d["id"]: d for d in json.loads(out)}
    assert set(DRILL_IDS) <= set(listing)
    assert {"title", "difficulty", "time_limit_min", "tags", "metric", "starter_triton",
            "starter_torch"} <= set(listing["softmax"])


def test_list_shows_a_broken_drill_and_goes_on(capsys, kernels_copy, monkeypatch):
    (kernels_copy / "layernorm" / "drill.yaml").write_text("not: [valid")
    monkeypatch.setenv("STUDIO_KERNELS", str(kernels_copy))
    code, out = _run_cli(capsys, "list")
    assert code == 0 and "BROKEN" in out and "rmsnorm" in out and "softmax" in out
    code, out = _run_cli(capsys, "list", "--json")
    assert "error" in {d["id"]: d for d in json.loads(out)}["layernorm"]


def test_show_prints_the_statement(capsys):
    code, out = _run_cli(capsys, "show", "rmsnorm")
    assert code == 0 and out.startswith("# RMSNorm") and "starter_triton.py" in out


REQUIRED = {"drill": str, "mode": str, "device": str, "versions": dict, "passed": bool,
            "status": str, "cases": list, "flags": list, "file": str, "lang": str,
            "started_at": str, "duration_s": float}
CASE_REQUIRED = {"name": str, "passed": bool, "max_abs_err": (float, type(None)),
                 "error": (str, type(None)), "dtype": str, "shape": list}
POINT_REQUIRED = {"size", "dtype", "ms", "p20", "p80", "ref_ms", "gbps", "pct_of_peak", "speedup"}


def test_run_json_document_schema(capsys):
    code, out = _run_cli(capsys, "run", "softmax", "@solution", "--interpret", "--json", "--bench")
    assert code == 0
    doc = json.loads(out)                      # exactly one JSON document on stdout
    for key, kind in REQUIRED.items():
        assert isinstance(doc[key], kind), key
    assert doc["mode"] == "interpreter" and doc["passed"] is True
    assert {"python", "torch", "triton"} <= set(doc["versions"])
    for case in doc["cases"]:
        for key, kind in CASE_REQUIRED.items():
            assert isinstance(case[key], kind), key
    assert doc["bench"]["requested"] and doc["bench"]["available"] is False
    assert "GPU" in doc["bench"]["note"] and doc["bench"]["points"] == []
    assert POINT_REQUIRED <= {f.name for f in fields(BenchPoint)}


def test_exit_codes(capsys):
    assert _run_cli(capsys, "run", "vector_add", "@solution", "--interpret")[0] == 0
    code, out = _run_cli(capsys, "run", "softmax", str(BAD_KERNELS / "softmax_no_max.py"), "--interpret")
    assert code == 1 and "FAIL  huge-values" in out and "FAILED" in out
    code, out = _run_cli(capsys, "run", "softmax", str(BAD_KERNELS / "syntax_error.py"), "--interpret")
    assert code == 2 and "syntax_error" in out
    assert _run_cli(capsys, "run", "nope", "x.py")[0] == 2


def test_failed_run_json_names_case_and_errors(capsys):
    code, out = _run_cli(capsys, "run", "vector_add", str(BAD_KERNELS / "vector_add_oob_store.py"),
                         "--interpret", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["passed"] is False and doc["status"] == "failed"
    bad = [c for c in doc["cases"] if not c["passed"]]
    assert bad and all("out of bounds" in c["error"] for c in bad)


def test_flags_appear_in_json(capsys):
    code, out = _run_cli(capsys, "run", "softmax", str(BAD_KERNELS / "softmax_torch_only.py"),
                         "--interpret", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["flags"] == ["no_triton_kernel"]
    assert doc["flag_details"]["no_triton_kernel"]["blocking"] is True


def test_solution_prints_are_echoed_behind_a_margin(capsys):
    code, out = _run_cli(capsys, "run", "softmax", str(BAD_KERNELS / "forged_output.py"), "--interpret")
    assert code == 1
    forged = [line for line in out.splitlines() if "PASSED: softmax" in line]
    assert forged and all(line.startswith("  | ") for line in forged)
    assert out.splitlines()[-1].startswith("FAILED")


def test_on_result_hook_receives_each_run(capsys):
    seen = []
    code, _ = _run_cli(capsys, "run", "vector_add", "@solution", "--interpret",
                       on_result=lambda result, drill: seen.append((result, drill)))
    assert code == 0 and len(seen) == 1
    result, drill = seen[0]
    assert isinstance(result, RunResult) and result.passed and drill.id == "vector_add"


def test_timeout_option(capsys):
    code, out = _run_cli(capsys, "run", "softmax", str(BAD_KERNELS / "hangs.py"), "--interpret",
                         "--timeout", "4", "--json")
    doc = json.loads(out)
    assert code == 2 and doc["status"] == "timeout" and doc["error"]["kind"] == "timeout"


@pytest.mark.parametrize("argv", [["run", "softmax"], ["bogus"]])
def test_usage_errors_exit_2(argv):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2


def _torch_has_cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@pytest.mark.skipif(_torch_has_cuda(), reason="this machine can build CUDA: see test_cuda_gpu.py")
def test_cuda_without_a_gpu_is_a_verdict_with_the_reason(capsys, tmp_path):
    source = tmp_path / "mine.cu"
    source.write_text("#include <torch/types.h>\n__global__ void add_kernel(float* y) {}\n"
                      "torch::Tensor add(torch::Tensor x, torch::Tensor y) { return x; }\n")
    code, out = _run_cli(capsys, "run", "vector_add", str(source), "--json")
    doc = json.loads(out)
    assert code == 2 and doc["lang"] == "cuda" and doc["status"] == "cuda_unavailable"
    assert doc["error"]["message"].startswith("CUDA is unavailable: ")
    assert "Traceback" not in out and doc["cases"] == []
    code, out = _run_cli(capsys, "run", "vector_add", str(source))
    assert "CUDA is unavailable" in out and "Traceback" not in out


def test_languages_lists_cuda_with_why_it_is_unavailable_or_where_it_runs(capsys):
    code, out = _run_cli(capsys, "languages", "--json")
    doc = json.loads(out)
    rows = {row["language"]: row for row in doc["languages"]}
    assert code == 0 and set(rows) == {"triton", "torch", "cuda"}
    assert rows["cuda"]["label"] == "CUDA C++" and rows["cuda"]["detail"]
    if not _torch_has_cuda():
        assert rows["cuda"]["available"] is False
        assert "CPU-only build" in rows["cuda"]["detail"] or "toolkit" in rows["cuda"]["detail"]
    code, out = _run_cli(capsys, "languages")
    assert "CUDA C++" in out and ("unavailable" in out or "available" in out)


def test_compile_baseline_reaches_the_judges_request(capsys, monkeypatch, tmp_path):
    """--compile-baseline travels from the command line to the judge's request (which times
    torch.compile of the drill's baseline beside it; that part needs a GPU)."""
    from studio.drills import runner as runner_mod

    payloads = []
    original = runner_mod.DrillRunner._request_payload

    def spy(self, request, *args):
        payload = original(self, request, *args)
        payloads.append(payload)
        return payload

    monkeypatch.setattr(runner_mod.DrillRunner, "_request_payload", spy)
    _run_cli(capsys, "run", "vector_add", "@solution", "--interpret", "--compile-baseline", "--json")
    _run_cli(capsys, "run", "vector_add", "@solution", "--interpret", "--json")
    assert [p["compile_baseline"] for p in payloads] == [True, False]
