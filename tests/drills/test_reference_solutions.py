"""Every drill's reference solution passes in interpreter mode; every starter fails cleanly."""

from __future__ import annotations

import pytest

from studio.drills.catalog import get_drill

from .conftest import DRILL_IDS, run_drill


@pytest.mark.parametrize("drill_id", DRILL_IDS)
def test_reference_solution_passes_in_interpreter_mode(drill_id):
    result = run_drill(drill_id, "@solution")
    failures = [(c.name, c.error) for c in result.cases if not c.passed]
    assert result.status == "passed", (failures, result.error, result.flag_names(), result.console.stderr[-2000:])
    assert result.mode == "interpreter" and result.lang == "triton"
    assert len(result.cases) == len(get_drill(drill_id).cases)
    drill = get_drill(drill_id)      # a large case caps its trials (tests/drills/test_large_cases.py)
    assert [c.trials for c in result.cases] == [min(drill.trials, case.get("trials", drill.trials))
                                              for case in drill.cases]
    assert result.flags == [] and result.cli_exit_code == 0
    assert result.versions["torch"] and result.versions["triton"]


@pytest.mark.parametrize("drill_id", DRILL_IDS)
@pytest.mark.parametrize("lang", ["triton", "torch"])
def test_starter_fails_cleanly(drill_id, lang):
    result = run_drill(drill_id, f"@starter-{lang}", lang=lang)
    assert result.status == "failed" and result.cli_exit_code == 1
    assert result.error is None, result.error
    assert result.cases and not any(c.passed for c in result.cases)
    for case in result.cases:
        assert "NotImplementedError" in case.error and f"starter_{lang}.py, line" in case.error
    assert "Traceback" not in result.console.stderr


_INT8_SOLUTION = _GELU_SOLUTION = None


def _load_solution(drill):
    import importlib.util

    from studio.drills.catalog import get_drill
    spec = importlib.util.spec_from_file_location(f"sol_{drill}_unit", get_drill(drill).solution)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_int8_integer_dequant_is_exact_for_every_int8(monkeypatch):
    """The FAST int8 -> fp16/bf16 conversion (integer ops, one subtraction) must be exact."""
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    import torch
    import triton
    import triton.language as tl

    global _INT8_SOLUTION                      # the interpreter resolves names as globals
    _INT8_SOLUTION = _load_solution("int8_wo_matmul")

    @triton.jit
    def convert(w_ptr, out_ptr, FAST: tl.constexpr):
        i = tl.arange(0, 256)
        tl.store(out_ptr + i, _INT8_SOLUTION.dequant(tl.load(w_ptr + i), out_ptr.dtype.element_ty, FAST))

    w = torch.arange(-128, 128, dtype=torch.int8)
    for dtype in (torch.float16, torch.bfloat16):
        out = torch.empty(256, dtype=dtype)
        convert[(1,)](w, out, FAST=True)
        assert torch.equal(out.float(), w.float()), dtype


def test_bias_gelu_erf_approximation_within_float32_tolerance(monkeypatch):
    """A&S 7.1.26 GELU against the exact float64 GELU over a dense range, huge values included."""
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    import torch
    import triton
    import triton.language as tl

    global _GELU_SOLUTION
    _GELU_SOLUTION = _load_solution("bias_gelu")

    @triton.jit
    def apply(z_ptr, out_ptr, n, BLOCK: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + i, _GELU_SOLUTION.gelu_erf(tl.load(z_ptr + i, mask=i < n)), mask=i < n)

    z = torch.cat([torch.linspace(-12, 12, 200_001), torch.tensor([-1e4, -1e3, 1e3, 1e4, 0.0])])
    out = torch.empty_like(z)
    apply[(triton.cdiv(z.numel(), 4096),)](z, out, z.numel(), BLOCK=4096)
    exact = torch.nn.functional.gelu(z.double())
    bound = 1e-5 + 1e-5 * exact.abs()           # the drill's float32 tolerance
    assert ((out.double() - exact).abs() <= 0.1 * bound).all()
