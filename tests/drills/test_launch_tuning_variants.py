"""bench/launch_tuning.py's kernel variants compute what the reference solutions compute (#21).

The script times each variant on a GPU (bench/results/launch_tuning.md) after checking it
against the drill's output there; these run the variants added for residual_rmsnorm, fp8_quant,
cross_entropy, vector_add, histogram, fused_adamw, transpose, prefix_sum, causal_conv1d, dropout and the
two decode-attention drills under Triton's
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

drill, builder, shape, dtype = sys.argv[1], sys.argv[2], [int(v) for v in sys.argv[3].split("x")], sys.argv[4]
spec = long_rows_tuning.load(drill, "spec")
sol = long_rows_tuning.load(drill, "solution")
inputs, want = long_rows_tuning.point_inputs(spec, shape, dtype, device="cpu")
if builder == "decode_variants":
    variants = launch_tuning.decode_variants(sol, drill, dtype)
else:
    variants = [(n, f) for n, f in getattr(launch_tuning, builder)(sol, *shape) if n != "liger-kernel"]
assert len(variants) > 5 and variants[0][0].startswith("solution as is"), [n for n, _ in variants]
expected = variants[0][1](*inputs).float()          # the solution's entry point as it is
# fp8: the solution rounds as the drill does, torch's cast differs at ties; fused_adamw: torch's op
# stepped the inputs in place, so the variants are compared with the solution's step from there;
# dropout: torch's mask is its own generator's, the solution's is the drill's Philox stream
if drill not in ("fp8_quant", "fused_adamw", "dropout"):
    assert (expected - want).abs().max() <= long_rows_tuning.bf16_tolerance(want)
for name, fn in variants[1:]:
    got = fn(*inputs)
    got = (torch.stack(got) if isinstance(got, tuple) else got).float()
    assert got.shape == expected.shape, name
    if drill == "cross_entropy":   # other chunk sizes sum the row in another order
        torch.testing.assert_close(got, expected, rtol=1e-6, atol=1e-6, msg=name)
    elif dtype == "float32":       # other chunks / splits: the same sums in another order
        torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-3, msg=name)
    else:
        assert torch.equal(got, expected), name
print("checked", len(variants) - 1)
'''


@pytest.mark.parametrize("drill, shape, builder, dtype", [
    ("residual_rmsnorm", "3x300", "residual_rmsnorm_variants", "bfloat16"),
    ("fp8_quant", "2x2500", "fp8_quant_variants", "bfloat16"),
    ("cross_entropy", "3x2051", "cross_entropy_variants", "bfloat16"),
    ("vector_add", "5000", "vector_add_variants", "bfloat16"),
    ("histogram", "5000", "histogram_variants", "bfloat16"),
    ("fused_adamw", "5000", "fused_adamw_variants", "bfloat16"),
    ("transpose", "100x130", "transpose_variants", "bfloat16"),
    ("prefix_sum", "7x300", "prefix_sum_variants", "bfloat16"),
    ("prefix_sum", "3x5000", "prefix_sum_variants", "float32"),     # few long rows: split, look-back
    ("prefix_sum", "128x4500", "prefix_sum_variants", "float32"),   # many long rows: carry loop too
    ("causal_conv1d", "2x5x300", "causal_conv1d_variants", "bfloat16"),
    ("dropout", "3x1000", "dropout_variants", "bfloat16"),          # integer keep test: bit for bit
    ("int8_wo_matmul", "1x96x80", "int8_wo_variants", "float32"),      # decode tables and the GEMV
    ("flash_decoding", "2x8x2x64x300", "decode_variants", "float32"),
    ("paged_attention_decode", "2x8x2x64x300", "decode_variants", "float32"),
])
def test_variants_match_the_solution(drill, shape, builder, dtype):
    env = {**os.environ, "TRITON_INTERPRET": "1",
           "PYTHONPATH": os.pathsep.join([str(REPO / "bench"), str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", CHECK, drill, builder, shape, dtype], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().startswith("checked "), proc.stdout


@pytest.mark.parametrize("p", [0.0, 1e-9, 0.1, 0.5, 0.9, 0.999999])
def test_dropout_threshold_splits_the_uniforms_at_p(p):
    """dropout_int_kernel keeps a folded Philox word v when v >= dropout_threshold(p): the least v
    whose uniform (the drill's conversion, spec.uniform) is >= p as a float32."""
    import torch

    sys.path.insert(0, str(REPO / "bench"))
    import launch_tuning
    import long_rows_tuning

    spec = long_rows_tuning.load("dropout", "spec")
    t = launch_tuning.dropout_threshold(p)
    p32 = torch.tensor(p, dtype=torch.float32)
    assert spec.uniform(torch.tensor([t], dtype=torch.int64))[0] >= p32
    if t > 0:
        assert spec.uniform(torch.tensor([t - 1], dtype=torch.int64))[0] < p32
    else:
        assert p32 == 0


def test_every_drill_with_shapes_has_a_builder():
    """launch_tuning's default shapes and its builders name the same drills, and a builder is reached
    with the point's sizes (vector_add's 5000 elements) or its dtype (the decode drills: float32 adds
    the dot precisions)."""
    sys.path.insert(0, str(REPO / "bench"))
    import launch_tuning
    import long_rows_tuning

    assert set(launch_tuning.SHAPES) == set(launch_tuning.BUILDERS)
    sol = long_rows_tuning.load("vector_add", "solution")
    names = [n for n, _ in launch_tuning.BUILDERS["vector_add"](sol, [5000], "bfloat16")]
    assert names == [n for n, _ in launch_tuning.vector_add_variants(sol, 5000)]
    assert names[1] == "block=256 w=1 programs=20"            # 5000 elements in blocks of 256
    sol = long_rows_tuning.load("flash_decoding", "solution")
    fp32 = [n for n, _ in launch_tuning.BUILDERS["flash_decoding"](sol, [1, 32, 8, 128, 4096], "float32")]
    bf16 = [n for n, _ in launch_tuning.BUILDERS["flash_decoding"](sol, [1, 32, 8, 128, 4096], "bfloat16")]
    assert any("dot=ieee" in n for n in fp32) and not any("dot=ieee" in n for n in bf16)
