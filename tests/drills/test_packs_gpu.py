"""Pack problems on a GPU: LeetGPU's extern "C" CUDA solve built with its generated binding,
GPU MODE's load_inline submissions, and timing over the problems' own benchmark inputs with
their reference as the baseline. Marked `gpu` (skipped without a GPU and a CUDA toolkit); the
fixture packs and the solutions in pack_solutions/ are written for these tests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from studio.drills import cli, packs

pytestmark = pytest.mark.gpu

FIXTURES = Path(__file__).parent / "pack_fixtures"
SOLUTIONS = Path(__file__).parent / "pack_solutions"


@pytest.fixture
def added(tmp_path):
    for name in ("gpumode", "leetgpu"):
        shutil.copytree(FIXTURES / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    packs.add_pack(tmp_path / "gpumode", name="gm")
    packs.add_pack(tmp_path / "leetgpu", name="lg")
    return tmp_path


def _run(capsys, drill: str, file: str, *extra: str) -> dict:
    code = cli.main(["run", drill, str(file), "--json", "--timeout", "300", *extra])
    doc = json.loads(capsys.readouterr().out)
    doc["_exit"] = code
    return doc


def test_a_leetgpu_cuda_solve_on_raw_pointers_passes_and_a_wrong_one_fails(added, capsys):
    good = _run(capsys, "lg/easy/1_scale", SOLUTIONS / "leetgpu_scale.cu")
    assert good["status"] == "passed", (good.get("error"), good["cases"], good["flags"])
    assert good["lang"] == "cuda" and good["builds"]
    wrong = _run(capsys, "lg/easy/1_scale", SOLUTIONS / "leetgpu_scale_wrong.cu")
    assert wrong["status"] == "failed" and not wrong["cases"][0]["passed"]
    starter = _run(capsys, "lg/easy/1_scale", "@starter-cuda")
    assert starter["status"] == "failed" and "never written" in starter["cases"][0]["error"]


def test_pack_problems_are_timed_over_their_benchmark_inputs(added, capsys):
    for drill, file in (("lg/easy/1_scale", SOLUTIONS / "leetgpu_scale_triton.py"),
                        ("gm/practice/scale_py", SOLUTIONS / "gpumode_scale_inline.py")):
        doc = _run(capsys, drill, file, "--bench")
        assert doc["status"] == "passed", (file, doc.get("error"), doc["flags"])
        points = doc["bench"]["points"]
        assert points and all(p["passed"] and p["ms"] > 0 and p["ref_ms"] > 0 for p in points), points
        assert all(p["baseline"] == "reference" and p["gbps"] > 0 and p["label"] for p in points)


def test_gpu_mode_tuples_and_one_tensor_data_are_timed(added, capsys, tmp_path):
    """A tuple of output buffers (quant_py), a tuple of new tensors (divmod_py) and `data` of
    one tensor (tril_py): each benchmark input checked by the problem's own check, then timed
    (the timed loop checks the first tensor of a tuple)."""
    bodies = {"quant_py": "    x, q, s = data\n    s[...] = x.abs().amax(1) / 7\n"
                          "    q[...] = torch.round(x / s[:, None])\n    return q, s\n",
              "divmod_py": "    total = data[0] + data[1]\n    whole = torch.floor(total)\n"
                           "    return whole.int(), total - whole\n",
              "tril_py": "    return torch.tril(data)\n"}
    for problem, body in bodies.items():
        file = tmp_path / f"{problem}.py"
        file.write_text("import torch\n\n\ndef custom_kernel(data):\n" + body)
        doc = _run(capsys, f"gm/practice/{problem}", file, "--bench")
        assert doc["status"] == "passed", (problem, doc.get("error"), doc["cases"], doc["flags"])
        points = doc["bench"]["points"]
        assert points and all(p["passed"] and p["ms"] > 0 and p["ref_ms"] > 0 for p in points), (problem, points)


def test_a_cuda_graph_solution_under_torch_compile_reduce_overhead_is_timed(added, capsys, tmp_path):
    """GPU MODE's own pmpp solutions wrap custom_kernel in torch.compile(mode="reduce-overhead"):
    CUDA-graph trees record each shape's graph in a private memory pool and check it holds only
    their outputs. The worker's guarded copies of allocations once landed in that pool and the
    re-check raised "tensor(s) in the cudagraph pool not tracked as outputs" (H200, pmpp
    vectorsum): a correct solution failed."""
    file = tmp_path / "tril_graphs.py"
    file.write_text("import torch\n\n\ndef _tril(data):\n    return torch.tril(data)\n\n\n"
                    "custom_kernel = torch.compile(_tril, mode=\"reduce-overhead\")\n")
    doc = _run(capsys, "gm/practice/tril_py", file, "--bench")
    assert doc["status"] == "passed", (doc.get("error"), doc["cases"], doc["flags"])
    assert [c["passed"] for c in doc["cases"]] == [True] * 4           # 2 checks, 2 re-checks
    assert all(p["passed"] and p["ms"] > 0 for p in doc["bench"]["points"])
