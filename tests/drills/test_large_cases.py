"""Every drill runs a large input under the interpreter too (#21).

A submission correct only below 2^20 elements (garbage above) once passed every case in
Triton's interpreter and failed on the H100: the interpreter ran small cases only. So every
drill in kernels/ lists, among its `cases` (all modes, not `gpu_cases`), one whose largest
tensor (an input or the reference output) has more than 2^20 elements, or, where that costs
too much in the interpreter, one that says which large-size path it runs (`large_path`).
Such cases cap their trials (`trials: 1`) to keep CI time in check. The reference solutions
run them in tests/drills/test_reference_solutions.py and tests/test_drill_catalogue.py.
"""

from __future__ import annotations

import importlib.util
import shutil

import pytest

from studio.drills.catalog import DrillError, get_drill, load_catalog

from .conftest import KERNELS

torch = pytest.importorskip("torch")

LARGE = 1 << 20
KERNEL_DRILLS = sorted(d.id for d in load_catalog() if d.ok and not getattr(d, "distributed", None))


def _spec_module(drill):
    spec = importlib.util.spec_from_file_location(f"_large_cases_{drill.id}", drill.spec_module)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def largest_tensor(drill, case) -> int:
    """Elements of the case's largest input or reference output, as the judge builds them."""
    module = _spec_module(drill)
    inputs = module.make_inputs(case, torch.Generator().manual_seed(0), torch.device("cpu"))
    tensors = [v for v in inputs if isinstance(v, torch.Tensor)]
    reference = module.reference(*inputs)
    tensors += [reference] if isinstance(reference, torch.Tensor) else []
    return max(t.numel() for t in tensors)


def test_every_kernel_drill_is_checked():
    assert len(KERNEL_DRILLS) >= 20 and "softmax" in KERNEL_DRILLS


@pytest.mark.parametrize("drill_id", KERNEL_DRILLS)
def test_interpreter_runs_a_case_above_2_20_elements(drill_id):
    drill = get_drill(drill_id)
    explained = [c for c in drill.cases if c.get("large_path")]
    if explained:
        assert all(len(c["large_path"]) > 20 for c in explained)
        return
    sizes = {c["name"]: largest_tensor(drill, c) for c in drill.cases}
    large = {name: n for name, n in sizes.items() if n > LARGE}
    assert large, f"{drill_id}: no case among `cases` above 2^20 elements ({max(sizes.values())} at most)"
    for name in large:     # CI time: one trial of each
        assert next(c for c in drill.cases if c["name"] == name).get("trials") == 1, (drill_id, name)


def test_largest_tensor_counts_inputs_and_output():
    # vector_add [1048583]: x, y and out each hold 1048583 elements, just above 2^20
    assert largest_tensor(get_drill("vector_add"), {"name": "t", "shape": [1048583], "dtype": "float32",
                                                    "fill": "randn", "layout": "contiguous"}) == LARGE + 7


@pytest.mark.parametrize("bad, message", [("trials: 0", "trials must be a positive int"),
                                          ("trials: two", "trials must be a positive int"),
                                          ("trials: true", "trials must be a positive int"),
                                          ("large_path: ''", "large_path must say")])
def test_catalog_rejects_bad_case_options(tmp_path, bad, message):
    kernels = tmp_path / "kernels"
    shutil.copytree(KERNELS / "softmax", kernels / "softmax", ignore=shutil.ignore_patterns("__pycache__"))
    path = kernels / "softmax" / "drill.yaml"
    text = path.read_text()
    line = "  - {name: large-1m, shape: [65, 16411], dtype: float32, trials: 1}"
    assert line in text
    path.write_text(text.replace(line, line.replace("trials: 1", bad)))
    drill = {d.id: d for d in load_catalog(kernels)}["softmax"]
    assert not drill.ok and message in drill.error
    with pytest.raises(DrillError):
        get_drill("softmax", kernels)
