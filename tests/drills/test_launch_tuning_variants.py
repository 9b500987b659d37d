"""bench/launch_tuning.py's kernel variants compute what the reference solutions compute (#21).

The script times each variant on a GPU (bench/results/launch_tuning.md) after checking it
against the drill's output there; these run the variants added for residual_rmsnorm, fp8_quant and
cross_entropy under Triton's interpreter on small inputs, so a change to a solution's kernel
signature, or a variant that computes something else, fails here rather than on the GPU machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture()
def tuning(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    monkeypatch.syspath_prepend(str(REPO / "bench"))
    monkeypatch.syspath_prepend(str(REPO))
    for name in ("launch_tuning", "long_rows_tuning"):
        sys.modules.pop(name, None)
    import launch_tuning
    import long_rows_tuning
    return launch_tuning, long_rows_tuning


@pytest.mark.parametrize("drill, shape, builder", [
    ("residual_rmsnorm", [3, 300], "residual_rmsnorm_variants"),
    ("fp8_quant", [2, 2500], "fp8_quant_variants"),
    ("cross_entropy", [3, 2051], "cross_entropy_variants"),
])
def test_variants_match_the_solution(tuning, drill, shape, builder):
    import torch

    launch_tuning, long_rows_tuning = tuning
    spec = long_rows_tuning.load(drill, "spec")
    sol = long_rows_tuning.load(drill, "solution")
    inputs, want = long_rows_tuning.point_inputs(spec, shape, "bfloat16", device="cpu")
    expected = getattr(sol, drill)(*inputs).float()
    if drill != "fp8_quant":           # fp8: the solution rounds as the drill does, torch's cast differs at ties
        assert (expected - want).abs().max() <= long_rows_tuning.bf16_tolerance(want)
    variants = [(n, f) for n, f in getattr(launch_tuning, builder)(sol, *shape) if n != "liger-kernel"]
    assert len(variants) > 5 and variants[0][0].startswith("solution as is")
    for name, fn in variants[1:]:
        got = fn(*inputs)
        got = (torch.stack(got) if isinstance(got, tuple) else got).float()
        assert got.shape == expected.shape, name
        if drill == "cross_entropy":   # other chunk sizes sum the row in another order
            torch.testing.assert_close(got, expected, rtol=1e-6, atol=1e-6, msg=name)
        else:
            assert torch.equal(got, expected), name
