"""Loading a user's bench spec: the contract, and a clear file:line for each mistake."""

from __future__ import annotations

import textwrap

import pytest
import torch

from studio.drills.harness import bench_spec

GOOD = '''
import torch

sizes = [(4, 33), (2, 1024)]
dtypes = ["float32", "float16"]
tolerances = {"float16": (2e-3, 2e-2)}
baselines = {"torch": lambda x: torch.softmax(x, -1)}

def inputs(size, dtype, device):
    return (torch.randn(size, dtype=dtype, device=device),)

def reference(x):
    return torch.softmax(x.float(), -1).to(x.dtype)

def bytes_moved(size, dtype):
    return 2 * size[0] * size[1] * torch.empty((), dtype=dtype).element_size()
'''


def write(tmp_path, text, name="k.bench.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_good_spec_gives_cases_inputs_reference_and_models(tmp_path):
    problem = bench_spec.load(write(tmp_path, GOOD))
    assert problem.sizes == [(4, 33), (2, 1024)] and problem.dtypes == ["float32", "float16"]
    assert problem.tolerances["float16"] == {"atol": 2e-3, "rtol": 2e-2}
    assert problem.tolerances["float32"]["rtol"] == bench_spec.DEFAULT_TOLERANCES["float32"][1]
    cases = problem.cases()
    assert len(cases) == 4 and cases[0]["shape"] == [4, 33] and cases[2]["dtype"] == "float16"
    a = problem.make_inputs(cases[2], torch.Generator().manual_seed(5), torch.device("cpu"))
    b = problem.make_inputs(cases[2], torch.Generator().manual_seed(5), torch.device("cpu"))
    c = problem.make_inputs(cases[2], torch.Generator().manual_seed(6), torch.device("cpu"))
    assert a[0].dtype == torch.float16 and torch.equal(a[0], b[0]) and not torch.equal(a[0], c[0])
    ref = problem.reference(*a)
    assert problem.output_dtype(*a) == torch.float16 and ref.shape == (4, 33)
    assert problem.bytes_moved(cases[2]) == 2 * 4 * 33 * 2
    assert problem.flops(cases[2]) == 0  # no flops model: the roofline needs one
    assert torch.allclose(problem.baseline(*a).float(), ref.float(), atol=1e-3)


def test_seeding_leaves_the_global_generator_alone(tmp_path):
    problem = bench_spec.load(write(tmp_path, GOOD))
    torch.manual_seed(0)
    expected = torch.rand(3)
    torch.manual_seed(0)
    problem.make_inputs(problem.cases()[0], torch.Generator().manual_seed(9), torch.device("cpu"))
    assert torch.equal(torch.rand(3), expected)


def test_without_baselines_the_reference_is_the_baseline(tmp_path):
    text = GOOD.replace('baselines = {"torch": lambda x: torch.softmax(x, -1)}', "")
    problem = bench_spec.load(write(tmp_path, text))
    assert list(problem.baselines) == ["reference"]


@pytest.mark.parametrize("change, message, line", [
    (("def inputs(size, dtype, device):", "def inputs(size, dtype, device)"), "syntax error", 9),
    (("sizes = [(4, 33), (2, 1024)]", "sizes = []"), "`sizes` must be a non-empty list", None),
    (("sizes = [(4, 33), (2, 1024)]", "sizes = [(4, 0)]"), "a size is a tuple of positive ints", None),
    (('dtypes = ["float32", "float16"]', 'dtypes = ["float8"]'), "`dtypes` holds 'float8'", None),
    (("def reference(x):", "def answer(x):"), "defines no function reference()", None),
    (('tolerances = {"float16": (2e-3, 2e-2)}', 'tolerances = {"float16": 0.1}'), "must be (atol, rtol)", None),
    (("import torch", "import torch\nraise RuntimeError('boom')"), "failed to import: RuntimeError: boom", 3),
])
def test_each_mistake_is_named_with_file_and_line(tmp_path, change, message, line):
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(bench_spec.SpecError) as info:
        bench_spec.load(path)
    assert message in str(info.value)
    assert str(path.resolve()) in str(info.value)
    assert info.value.line == line


def test_an_input_function_that_raises_is_named_with_its_line(tmp_path):
    text = GOOD.replace("    return (torch.randn(size, dtype=dtype, device=device),)",
                        "    raise ValueError('no such size')")
    problem = bench_spec.load(write(tmp_path, text))
    with pytest.raises(bench_spec.SpecError) as info:
        problem.make_inputs(problem.cases()[0], torch.Generator().manual_seed(1), torch.device("cpu"))
    assert "inputs() raised ValueError: no such size" in str(info.value) and info.value.line == 10


def test_missing_file_and_default_name(tmp_path):
    assert bench_spec.default_spec_path(tmp_path / "softmax.py") == tmp_path / "softmax.bench.py"
    with pytest.raises(bench_spec.SpecError, match="no such bench spec"):
        bench_spec.load(tmp_path / "softmax.bench.py")


def test_drill_request_lists_every_point_as_a_case(tmp_path):
    problem = bench_spec.load(write(tmp_path, GOOD))
    request = bench_spec.drill_request(problem, "my_softmax")
    assert request["entry"] == "my_softmax" and len(request["cases"]) == 4
    assert request["bench"] == {"shapes": [[4, 33], [2, 1024]], "dtypes": ["float32", "float16"]}
    assert set(request["tolerances"]) >= {"float32", "float16"}
