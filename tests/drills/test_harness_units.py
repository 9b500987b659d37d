"""Child-side pieces in-process: the comparison, the guards, the watch, device-facts caching."""

from __future__ import annotations

import json

import pytest
import torch
import torch.nn.functional as F

from studio.drills.harness import timing
from studio.drills.harness.checks import GuardedInput, compare, guarded_empty
from studio.drills.harness.honesty import LaunchCounter, watching
from studio.drills.harness.inputs import case_tensor
from studio.drills.harness.timing import suspicious_speedup

CPU = torch.device("cpu")


def _compare(out, ref, **kw):
    options = dict(dtype=out.dtype if isinstance(out, torch.Tensor) else torch.float32,
                   device=CPU, atol=1e-6, rtol=1e-5, poisoned=False)
    options.update(kw)
    return compare(out, ref, **options)


def test_compare_reports_case_errors_and_first_bad_index():
    ref = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    out = ref.float().clone()
    out[1, 2] += 0.5
    verdict = _compare(out, ref)
    assert not verdict.passed and verdict.max_abs_err == pytest.approx(0.5)
    assert "first bad at [1, 2]" in verdict.error and "got 6.5, expected 6" in verdict.error
    assert _compare(ref.float(), ref).passed


@pytest.mark.parametrize("out, message", [
    (None, "returned NoneType"),
    (torch.zeros(3), "returned shape [3]"),
    (torch.zeros(3, 4, dtype=torch.float16), "returned dtype float16"),
])
def test_compare_checks_type_shape_dtype(out, message):
    verdict = _compare(out, torch.zeros(3, 4, dtype=torch.float64), dtype=torch.float32)
    assert not verdict.passed and message in verdict.error


def test_compare_checks_the_nan_and_inf_pattern():
    ref = torch.tensor([0.0, float("-inf"), float("nan")], dtype=torch.float64)
    assert _compare(torch.tensor([0.0, float("-inf"), float("nan")]), ref).passed
    assert "NaN at 1" in _compare(torch.tensor([float("nan"), float("-inf"), float("nan")]), ref,
                                  poisoned=True).error
    assert "inf mismatch" in _compare(torch.tensor([0.0, float("inf"), float("nan")]), ref).error
    assert "reference is NaN" in _compare(torch.tensor([0.0, float("-inf"), 1.0]), ref).error


def test_guarded_input_tells_mutation_from_out_of_bounds():
    x = torch.randn(4, 5)
    guard = GuardedInput.of(x, "x")
    assert guard.problem() is None and torch.equal(guard.buffer.view, x)
    guard.buffer.view[2, 3] = 0.0
    assert "modified its input `x`" in guard.problem() and "[2, 3]" in guard.problem()
    guard = GuardedInput.of(x.t(), "x")
    guard.buffer.raw[guard.buffer.end + 3] = 0
    assert "wrote outside the elements of input `x`" in guard.problem()


def test_guarded_buffers_start_as_nan():
    buffer = guarded_empty((2, 3), (3, 1), torch.bfloat16, CPU, "out")
    assert torch.isnan(buffer.view).all() and buffer.guard_damage() == (0, 0)


def test_watch_sees_reference_ops_and_poisons_allocations():
    x = torch.randn(3, 5)
    with watching(LaunchCounter("/nowhere.py")) as watch:
        fresh = torch.empty_like(x)
        torch.softmax(x, dim=-1)
        F.rms_norm(x, (5,), torch.ones(5), 1e-6)
        torch.ops.aten._softmax(x, -1, False)
    assert torch.isnan(fresh).all() and watch.output_buffer(fresh) is not None
    assert {"softmax", "rms_norm"} <= watch.ops
    assert watch.launches == 0


def test_inputs_honour_fill_and_layout():
    gen = torch.Generator().manual_seed(0)
    x = case_tensor({"shape": [4, 9], "dtype": "float16", "fill": "neg_inf", "layout": "transposed"},
                    gen, CPU)
    assert x.shape == (4, 9) and x.stride() == (1, 4) and x.dtype == torch.float16
    assert torch.isfinite(x).any(dim=1).all()
    rows = case_tensor({"shape": [3, 8], "dtype": "float32", "fill": "equal_rows",
                        "layout": "strided_rows"}, gen, CPU)
    assert rows.stride(0) > 8 and (rows == rows[:, :1]).all()


def test_suspicious_speedup_flags_only_over_10x():
    points = [{"speedup": 2.0, "size": [4096, 256], "dtype": "float16"},
              {"speedup": 12.5, "size": [4096, 512], "dtype": "float32"}]
    assert "12.5x" in suspicious_speedup(points)
    assert suspicious_speedup(points[:1]) is None


def test_device_facts_are_measured_once_per_device(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(timing, "measure_copy_gbps", lambda: calls.append(1) or 3000.0)
    monkeypatch.setattr(timing, "measure_matmul_tflops", lambda: 750.0)
    versions = {"torch": "2.x", "triton": "3.x", "cuda": "12"}
    first = timing.device_facts(str(tmp_path), "H100", versions, lambda m: None)
    again = timing.device_facts(str(tmp_path), "H100", versions, lambda m: None)
    assert first["copy_gbps"] == again["copy_gbps"] == 3000.0 and len(calls) == 1
    timing.device_facts(str(tmp_path), "H200", versions, lambda m: None)
    assert len(calls) == 2
    cached = json.loads((tmp_path / timing.CACHE_FILE).read_text())
    assert len(cached) == 2 and all(v["name"] in k for k, v in cached.items())
    # facts cached by an older way of measuring (no method, or another) are measured again
    key = timing.device_key("H100", versions)
    cached[key].pop("method")
    (tmp_path / timing.CACHE_FILE).write_text(json.dumps(cached))
    timing.device_facts(str(tmp_path), "H100", versions, lambda m: None)
    assert len(calls) == 3
    timing.device_facts(str(tmp_path), "H100", versions, lambda m: None)
    assert len(calls) == 3


def test_quantiles_interpolate_like_torch_quantile():
    import torch
    values = [5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 7.5]
    expected = torch.quantile(torch.tensor(values, dtype=torch.float64),
                              torch.tensor([0.5, 0.2, 0.8], dtype=torch.float64)).tolist()
    assert timing.quantiles(values) == pytest.approx(tuple(expected))
    with pytest.raises(ValueError):
        timing.quantiles([])
