"""The catalogue drills (matmul ... causal_conv1d) run end to end in interpreter mode.

tests/drills/ runs the original four drills; this file covers the drills added by the
"Drill catalogue" issue with the same helper: every reference solution passes on the
drill's small cases, every starter fails cleanly with NotImplementedError, and the drill
folders are complete.
"""

from __future__ import annotations

import pytest

from studio.drills.catalog import get_drill
from tests.drills.conftest import run_drill

CATALOGUE = ("matmul", "transpose", "row_sum", "bias_gelu", "cross_entropy",
             "softmax_backward", "rope", "flash_attention", "int8_wo_matmul",
             "int4_wo_matmul",
             "prefix_sum", "histogram", "swiglu", "causal_conv1d",
             "embedding_backward",
             "paged_attention_decode", "flash_decoding",
             "topk_rows",
             "residual_rmsnorm",
             "layernorm_backward", "fused_adamw", "moe_gating",
             "grouped_gemm",
             "dropout", "fp8_quant", "top_p_sampling")


@pytest.mark.parametrize("drill_id", CATALOGUE)
def test_drill_folder_is_complete(drill_id):
    drill = get_drill(drill_id)
    assert drill.ok, drill.error
    assert f"{drill.time_limit_min} min" in drill.statement
    assert drill.difficulty in drill.statement.lower()
    assert 15 <= drill.time_limit_min <= 45
    assert drill.bench_shapes and drill.bench_dtypes and drill.gpu_cases
    assert {"float32", "float16", "bfloat16"} <= {c["dtype"] for c in drill.cases}
    assert {c["layout"] for c in drill.cases} - {"contiguous"}, "no non-contiguous case"


@pytest.mark.parametrize("drill_id", CATALOGUE)
def test_reference_solution_passes_in_interpreter_mode(drill_id):
    result = run_drill(drill_id, "@solution", timeout_s=240)
    failures = [(c.name, c.error) for c in result.cases if not c.passed]
    assert result.status == "passed", (failures, result.error, result.flag_names(),
                                       result.console.stderr[-2000:])
    assert result.mode == "interpreter" and result.lang == "triton"
    assert len(result.cases) == len(get_drill(drill_id).cases)
    assert result.flags == [] and result.cli_exit_code == 0


@pytest.mark.parametrize("drill_id", CATALOGUE)
@pytest.mark.parametrize("lang", ["triton", "torch"])
def test_starter_fails_cleanly(drill_id, lang):
    result = run_drill(drill_id, f"@starter-{lang}", lang=lang)
    assert result.status == "failed" and result.cli_exit_code == 1
    assert result.error is None, result.error
    assert result.cases and not any(c.passed for c in result.cases)
    for case in result.cases:
        assert "NotImplementedError" in case.error and f"starter_{lang}.py, line" in case.error
    assert "Traceback" not in result.console.stderr


def test_matmul_and_attention_bench_the_required_shapes():
    assert [4096, 4096, 4096] in get_drill("matmul").bench_shapes
    assert "float16" in get_drill("matmul").bench_dtypes
    shapes = get_drill("flash_attention").bench_shapes
    assert any(s[2] == 4096 and s[3] == 64 for s in shapes)
    assert any(s[2] == 4096 and s[3] == 128 for s in shapes)
    assert any(len(s) == 5 for s in shapes), "no causal bench point"
