"""A bench saved as a personal drill: an ordinary drill folder in the data dir, runnable."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.drills.catalog import DrillError, get_drill, load_catalog, load_my_drills
from studio.drills.my_drills import save_as_drill
from tests.drills.conftest import run_drill

FIXTURES = Path(__file__).resolve().parent / "bench_fixtures"


@pytest.fixture
def saved(tmp_path):
    kernel = tmp_path / "row_scale.py"
    shutil.copy(FIXTURES / "row_scale.py", kernel)
    spec = tmp_path / "row_scale.bench.py"
    shutil.copy(FIXTURES / "row_scale.bench.py", spec)
    return save_as_drill(kernel, "row_scale", spec, "Row scale", "Scale each row by its own factor.", 20, "easy")


def test_a_saved_bench_is_a_drill_with_everything(saved, studio_home):
    assert saved.ok and saved.id == "my-row-scale" and saved.personal
    assert saved.folder == studio_home / "my-drills" / "my-row-scale"
    assert saved.signature == "row_scale(x, s)" and saved.time_limit_min == 20
    assert [c["shape"] for c in saved.cases] == [[3, 33], [5, 100], [3, 33], [5, 100]]
    assert saved.bench_shapes == [[3, 33], [5, 100]] and saved.bench_dtypes == ["float32", "float16"]
    assert "Scale each row" in saved.statement and "row_scale(x, s)" in saved.statement
    assert "NotImplementedError" in saved.starter("triton").read_text()
    assert [d.id for d in load_my_drills()] == ["my-row-scale"]
    assert "my-row-scale" not in [d.id for d in load_catalog()]  # the shipped catalogue is apart
    assert get_drill("my-row-scale").personal


def test_the_users_kernel_passes_its_own_drill_and_the_starter_fails(saved):
    result = run_drill("my-row-scale", "@solution")
    assert result.status == "passed", result.to_json()
    starter = run_drill("my-row-scale", "@starter-torch")
    assert starter.status != "passed"


def test_a_computed_sizes_list_is_refused_with_a_reason(tmp_path):
    kernel = tmp_path / "k.py"
    kernel.write_text("def f(x):\n    return x\n")
    spec = tmp_path / "k.bench.py"
    spec.write_text("sizes = [(2 ** i,) for i in range(4)]\n")
    with pytest.raises(DrillError, match="literal"):
        save_as_drill(kernel, "f", spec, "F", "")
