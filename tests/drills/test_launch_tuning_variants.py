"""bench/launch_tuning.py's kernel variants compute what the reference solutions compute (#21).

The script times each variant on a GPU (bench/results/launch_tuning.md) after checking it
against the drill's output there; these run the variants added for residual_rmsnorm, fp8_quant,
cross_entropy, vector_add, histogram, fused_adamw, transpose, prefix_sum and causal_conv1d under Triton's
interpreter on small inputs, so a change to a solution's kernel signature, or a variant that
computes something else, fails here rather than on the GPU machine.

Each check runs in a fresh Python: Triton decides at import whether its own library functions
(tl.sum, ...) are interpreted, so a process that imported it without TRITON_INTERPRET cannot
interpret these kernels.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

CHECK = r'''
import sys
import torch
import launch_tuning
import long_rows_tuning

drill, builder, shape = sys.argv[1], sys.argv[2], [int(v) for v in sys.argv[3].split("x")]
spec = long_rows_tuning.load(drill, "spec")
sol = long_rows_tuning.load(drill, "solution")
inputs, want = long_rows_tuning.point_inputs(spec, shape, "bfloat16", device="cpu")
variants = [(n, f) for n, f in getattr(launch_tuning, builder)(sol, *shape) if n != "liger-kernel"]
assert len(variants) > 5 and variants[0][0].startswith("solution as is"), [n for n, _ in variants]
expected = variants[0][1](*inputs).float()          # the solution's entry point as it is
# fp8: the solution rounds as the drill does, torch's cast differs at ties; fused_adamw: torch's op
# stepped the inputs in place, so the variants are compared with the solution's step from there
if drill not in ("fp8_quant", "fused_adamw"):
    assert (expected - want).abs().max() <= long_rows_tuning.bf16_tolerance(want)
for name, fn in variants[1:]:
    got = fn(*inputs)
    got = (torch.stack(got) if isinstance(got, tuple) else got).float()
    assert got.shape == expected.shape, name
    if drill == "cross_entropy":   # other chunk sizes sum the row in another order
        torch.testing.assert_close(got, expected, rtol=1e-6, atol=1e-6, msg=name)
    else:
        assert torch.equal(got, expected), name
print("checked", len(variants) - 1)
'''


@pytest.mark.parametrize("drill, shape, builder", [
    ("residual_rmsnorm", "3x300", "residual_rmsnorm_variants"),
    ("fp8_quant", "2x2500", "fp8_quant_variants"),
    ("cross_entropy", "3x2051", "cross_entropy_variants"),
    ("vector_add", "5000", "vector_add_variants"),
    ("histogram", "5000", "histogram_variants"),
    ("fused_adamw", "5000", "fused_adamw_variants"),
    ("transpose", "100x130", "transpose_variants"),
    ("prefix_sum", "7x300", "prefix_sum_variants"),
    ("causal_conv1d", "2x5x300", "causal_conv1d_variants"),
])
def test_variants_match_the_solution(drill, shape, builder):
    env = {**os.environ, "TRITON_INTERPRET": "1",
           "PYTHONPATH": os.pathsep.join([str(REPO / "bench"), str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", CHECK, drill, builder, shape], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().startswith("checked "), proc.stdout
