"""The drill catalog: the shipped drills are complete, broken folders are reported, not fatal."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from studio.drills.catalog import DrillError, get_drill, load_catalog

from .conftest import DRILL_IDS, KERNELS


def test_shipped_drills_are_listed_and_complete():
    drills = {d.id: d for d in load_catalog()}
    assert set(DRILL_IDS) <= set(drills)
    for drill in (drills[i] for i in DRILL_IDS):
        assert drill.ok, drill.error
        assert drill.difficulty in ("easy", "medium", "hard")
        assert drill.time_limit_min > 0 and drill.metric in ("gbps", "tflops")
        assert drill.title and drill.tags and drill.inputs
        for path in (drill.starter_triton, drill.starter_torch, drill.solution, drill.spec_module):
            assert path.is_file()
        assert drill.bench_shapes and drill.bench_dtypes
        json.dumps(drill.to_request())


@pytest.mark.parametrize("drill_id", DRILL_IDS)
def test_statement_states_time_limit_and_difficulty(drill_id):
    drill = get_drill(drill_id)
    assert f"{drill.time_limit_min} min" in drill.statement
    assert drill.difficulty in drill.statement.lower()
    assert drill.statement.lstrip().startswith("# ")


@pytest.mark.parametrize("drill_id", DRILL_IDS)
@pytest.mark.parametrize("lang", ["triton", "torch"])
def test_starters_give_signature_and_docstring_but_no_solution(drill_id, lang):
    drill = get_drill(drill_id)
    source = drill.starter(lang).read_text()
    match = re.search(rf'def {drill.entry}\(.*?\).*?:\n\s+"""', source, re.S)
    assert match, f"{lang} starter lacks `def {drill.entry}(...)` with a docstring"
    assert "raise NotImplementedError" in source
    assert ("import triton" in source) == (lang == "triton")


def test_cases_cover_the_protocol_edge_cases():
    for drill in (get_drill(i) for i in DRILL_IDS):
        sizes = {case["shape"][-1] for case in drill.cases}
        assert {1, 127, 781, 1823} <= sizes, drill.id
        layouts = {case["layout"] for case in drill.cases}
        assert layouts - {"contiguous"}, f"{drill.id} has no non-contiguous case"
        assert {"float32", "float16", "bfloat16"} <= {c["dtype"] for c in drill.cases}


def test_row_drills_cover_special_values():
    for drill_id in ("softmax", "layernorm", "rmsnorm"):
        drill = get_drill(drill_id)
        fills = {case["fill"] for case in drill.cases}
        assert "equal_rows" in fills and fills & {"huge", "large_offset"}
        assert any(case["shape"][0] == 1 for case in drill.cases), "no single-row case"
        assert {"transposed", "strided_rows"} <= {case["layout"] for case in drill.cases}
    assert "neg_inf" in {case["fill"] for case in get_drill("softmax").cases}


def test_broken_folders_are_reported_per_drill(kernels_copy):
    (kernels_copy / "softmax" / "drill.yaml").write_text("id: softmax\ntitle: [unclosed\n")
    (kernels_copy / "rmsnorm" / "starter_torch.py").unlink()
    bad_tol = kernels_copy / "layernorm" / "drill.yaml"
    bad_tol.write_text(bad_tol.read_text().replace("bfloat16: {atol", "bfloat8: {atol"))
    drills = {d.id: d for d in load_catalog(kernels_copy)}
    assert drills["vector_add"].ok
    assert "cannot read drill.yaml" in drills["softmax"].error
    assert "starter_torch" in drills["rmsnorm"].error
    assert "bfloat8" in drills["layernorm"].error
    with pytest.raises(DrillError, match="broken"):
        get_drill("softmax", kernels_copy)


def test_unknown_drill_names_the_known_ones():
    with pytest.raises(DrillError, match="softmax"):
        get_drill("no-such-drill")


def test_id_must_match_folder(kernels_copy):
    shutil.copytree(kernels_copy / "softmax", kernels_copy / "softmax2")
    drills = {d.id: d for d in load_catalog(kernels_copy)}
    assert "does not match its folder" in drills["softmax2"].error


def test_tolerances_accept_yaml_exponent_strings(kernels_copy):
    path = kernels_copy / "softmax" / "drill.yaml"
    path.write_text(path.read_text().replace("atol: 1.0e-6", "atol: 1e-6"))
    drill = get_drill("softmax", kernels_copy)
    assert drill.tolerances["float32"].atol == pytest.approx(1e-6)


def test_gpu_bench_shapes_reach_the_judge_and_are_checked(kernels_copy):
    # A parallelism drill's NCCL sweep (bench.gpu_shapes) travels in the judge's request
    # beside the CPU sweep; a drill without one sends none; a malformed one is refused.
    request = get_drill("ring_allreduce", kernels_copy).to_request()["bench"]
    assert request["gpu_shapes"][-1] == [268435456] and request["shapes"][0] == [1024]
    assert "gpu_shapes" not in get_drill("softmax", kernels_copy).to_request()["bench"]
    path = kernels_copy / "ring_allreduce" / "drill.yaml"
    path.write_text(path.read_text().replace("gpu_shapes: [[262144]", "gpu_shapes: [[-1]"))
    drills = {d.id: d for d in load_catalog(kernels_copy)}
    assert "bench.gpu_shapes" in drills["ring_allreduce"].error


def test_kernels_readme_documents_every_file_role():
    readme = (KERNELS / "README.md").read_text()
    for name in ("drill.yaml", "statement.md", "starter_triton.py", "starter_torch.py",
                 "solution.py", "spec.py", "tolerances", "bytes_moved", "reference", "make_inputs"):
        assert name in readme


def _single_process_drills() -> list[str]:
    """Every shipped drill but the parallelism drills (N ranks, written with torch.distributed only)."""
    from studio.drills.catalog import load_drill

    return sorted(p.name for p in KERNELS.iterdir()
                  if (p / "drill.yaml").is_file() and not load_drill(p).distributed)


@pytest.mark.parametrize("drill_id", _single_process_drills())
def test_cuda_starter_declares_the_host_function_the_drill_calls(drill_id):
    from studio.drills.languages import cuda

    drill = get_drill(drill_id)
    assert drill.starter_cuda is not None and drill.starter("cuda") == drill.starter_cuda
    text = drill.starter_cuda.read_text(encoding="utf-8")
    host = cuda.find_host_function(text, drill.entry)
    assert host is not None, f"{drill_id}: no host function {drill.entry}"
    assert cuda.signature_problem(host, drill.signature) is None
    assert cuda.kernel_names(text), "a starter shows the kernel to write"
    assert "PYBIND11_MODULE" not in text
    assert f'TORCH_CHECK(false, "{drill.entry}: allocate the output and launch your kernel");' in text
    assert "cuda" in drill.languages


CUDA_SOLUTIONS = ["vector_add", "row_sum", "transpose", "softmax", "layernorm", "rmsnorm", "matmul"]


@pytest.mark.parametrize("drill_id", CUDA_SOLUTIONS)
def test_cuda_reference_solutions_follow_the_calling_convention(drill_id):
    from studio.drills.languages import cuda

    drill = get_drill(drill_id)
    assert drill.solution_cuda is not None and drill.summary()["solution_cuda"]
    text = drill.solution_cuda.read_text(encoding="utf-8")
    host = cuda.find_host_function(text, drill.entry)
    assert host is not None and cuda.signature_problem(host, drill.signature) is None
    assert host.return_type == "torch::Tensor"
    code = cuda.blank_comments(text)
    assert cuda.kernel_names(text) and "getCurrentCUDAStream" in code and "PYBIND11_MODULE" not in code
    assert not re.search(r"\bat::(mm|matmul|softmax|layer_norm|add)\b|torch::matmul|cublas", code, re.I)
