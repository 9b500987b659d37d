"""The Bench pane's spec form: what it writes loads as a spec and computes the right answer."""

from __future__ import annotations

import pytest
import torch

from studio.drills import bench_export
from studio.drills.bench_spec_writer import FormError, SpecForm, functions_in, parse_sizes, write_spec
from studio.drills.harness import bench_spec


def test_sizes_are_read_in_the_ways_people_write_them():
    assert parse_sizes("4096x1024, 4096×4096") == [(4096, 1024), (4096, 4096)]
    assert parse_sizes("(8, 16), (32, 64)") == [(8, 16), (32, 64)]
    assert parse_sizes("1024; 2048") == [(1024,), (2048,)]
    with pytest.raises(FormError, match="sizes"):
        parse_sizes("4096 by 1024")
    with pytest.raises(FormError, match="not positive"):
        parse_sizes("0x4")


def test_a_written_spec_loads_and_its_reference_is_right(tmp_path):
    form = SpecForm(sizes=[(4, 33), (2, 64)], dtypes=["float32", "float16"], shapes=["size", "(size[0], 1)"],
                    reference="torch.softmax(a * b, -1)", compile_baseline=False)
    path = tmp_path / "k.bench.py"
    path.write_text(write_spec(form), encoding="utf-8")
    problem = bench_spec.load(path)
    assert problem.sizes == [(4, 33), (2, 64)] and list(problem.baselines) == ["torch"]
    case = problem.cases()[2]  # (4, 33) float16
    a, b = problem.make_inputs(case, torch.Generator().manual_seed(1), torch.device("cpu"))
    assert a.shape == (4, 33) and b.shape == (4, 1) and a.dtype == torch.float16
    ref = problem.reference(a, b)
    expected = torch.softmax(a.double() * b.double(), -1).to(torch.float16)
    assert torch.equal(ref, expected)
    assert problem.bytes_moved(case) == (4 * 33 + 4 + 4 * 33) * 2


def test_form_mistakes_name_the_field():
    with pytest.raises(FormError, match="reference: unknown name"):
        write_spec(SpecForm(sizes=[(4,)], dtypes=["float32"], reference="x + 1"))
    with pytest.raises(FormError, match="shape of input a"):
        write_spec(SpecForm(sizes=[(4,)], dtypes=["float32"], shapes=["size["]))
    with pytest.raises(FormError, match="between 1 and 4"):
        write_spec(SpecForm(sizes=[(4,)], dtypes=["float32"], shapes=["size"] * 5))


def test_functions_are_listed_without_importing():
    source = "import triton\n\ndef softmax(x):\n    pass\n\ndef _helper():\n    pass\n\nclass K:\n    def m(self): pass\n"
    assert functions_in(source) == ["softmax"]
    assert functions_in("def broken(:\n") == []


DOC = {"device": "NVIDIA H100", "protocol": "engine", "versions": {"torch": "2.11", "triton": "3.6"},
       "run_id": 7, "points": [
           {"size": [4096, 1024], "dtype": "float16", "passed": True, "max_abs_err": 0.0, "ms": 0.0091,
            "p20": 0.0089, "p80": 0.0093, "gbps": 1850.0, "protocol": "engine",
            "baselines": {"torch": {"ms": 0.0147}, "torch.compile": {"ms": 0.0118}}},
           {"size": [4096, 4096], "dtype": "float16", "passed": False, "error": "wrong", "ms": None,
            "baselines": {}}]}


def test_csv_and_markdown_exports():
    rows = bench_export.to_csv(DOC).splitlines()
    assert rows[0].endswith("torch_us,torch.compile_us")
    assert rows[1].startswith("4096x1024,float16,True,0,9.1,8.9,9.3,1850.0") and rows[1].endswith("14.7,11.8")
    md = bench_export.to_markdown(DOC, {"run_id": 3, "points": [
        {"size": [4096, 1024], "dtype": "float16", "speedup": 1.25, "verdict": "faster"}]})
    assert "| 4096x1024 | float16 | ✓ | 9.1 (8.9–9.3) | 1850 | 14.7 | 11.8 | 1.25x faster |" in md
    assert "| 4096x4096 | float16 | ✗ | – |" in md
    assert "NVIDIA H100, protocol engine, torch 2.11, Triton 3.6; run #7." in md
