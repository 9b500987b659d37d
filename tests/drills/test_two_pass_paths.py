"""The paths that take over at large sizes in four reference solutions (#21), run on CPU.

rmsnorm, layernorm and softmax_backward read many rows of 1025-32768 two-byte values twice
(the second time from L2) and swiglu runs large contiguous inputs as one flat range: measured
faster on the H200 (bench/inductor_like.py, call 27). The drills' CPU cases are too small to
reach those paths, so these tests lower the size thresholds, check that the path is taken,
and compare with the drill's baseline under Triton's interpreter, with 32-bit and with 64-bit
offsets (WIDE) and with row lengths that do and do not divide into the chunks.

Triton reads TRITON_INTERPRET once per process, so the kernels run in one child process
(this file run as a script) and the tests check what it recorded.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[2] / "kernels"

ROWS = [  # (drill, kernel, N, chunk it must run in)
    ("rmsnorm", "rmsnorm_looped_kernel", 8192, 4096),          # chunks divide the row
    ("rmsnorm", "rmsnorm_looped_kernel", 6000, 4096),          # a masked last chunk
    ("layernorm", "layernorm_two_pass_kernel", 16384, 2048),
    ("layernorm", "layernorm_two_pass_kernel", 12001, 2048),
    ("softmax_backward", "softmax_bwd_two_pass_kernel", 16384, 8192),
    ("softmax_backward", "softmax_bwd_two_pass_kernel", 5000, 4096),
    ("rmsnorm", "rmsnorm_looped_kernel", 3000, 2048),          # rows of 2049-4096: 2048 at a time
    ("softmax_backward", "softmax_bwd_two_pass_kernel", 1500, 2048),
]
SWIGLU = [(4, 1024), (5, 781)]          # M * H a multiple of the flat block, and not


# ---------------------------------------------------------------- the child (TRITON_INTERPRET=1)

def _load(drill: str, what: str):
    spec = importlib.util.spec_from_file_location(f"_two_pass_{drill}_{what}", KERNELS / drill / f"{what}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Spy:
    """Stands in for a @triton.jit kernel: records each launch's keyword arguments (bar
    tensors), can override some (WIDE), then launches the real kernel."""

    def __init__(self, kernel, **force):
        self.kernel, self.force, self.launches = kernel, force, []

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            kwargs.update(self.force)
            self.launches.append({k: v for k, v in kwargs.items() if isinstance(v, (bool, int, float))})
            return self.kernel[grid](*args, **kwargs)
        return launch


def _child(out: str) -> None:
    import torch

    def inputs(spec, M, N, dtype, fill="randn"):
        case = {"name": "t", "shape": [M, N], "dtype": dtype, "fill": fill, "layout": "contiguous"}
        return spec.make_inputs(case, torch.Generator().manual_seed(3), torch.device("cpu"))

    def compare(got, want):
        return {"err": float((got.float() - want.float()).abs().max()),
                "tol": 0.02 * float(want.float().abs().max()) + 0.02}

    results = {}
    for drill, kernel, N, _ in ROWS:
        for wide in (False, True):
            sol, spec = _load(drill, "solution"), _load(drill, "spec")
            spy = Spy(getattr(sol, kernel), **({"WIDE": True} if wide else {}))
            setattr(sol, kernel, spy)
            if drill == "softmax_backward":
                M = 129                              # its threshold is M > 128, not a module constant
            else:
                sol.MIN_PROGRAMS, M = 2, 3
            # layernorm: rows far from zero, which Welford's merge must keep the variance of
            args = inputs(spec, M, N, "bfloat16", "large_offset" if drill == "layernorm" else "randn")
            results[f"{drill}/{N}/{wide}"] = {**compare(getattr(sol, drill)(*args), spec.baseline(*args)),
                                              "launches": spy.launches}
    # few rows or four-byte values: the solutions keep rows in registers
    for drill, kernel, _, _ in ROWS[::2]:
        sol, spec = _load(drill, "solution"), _load(drill, "spec")
        spy = Spy(getattr(sol, kernel))
        setattr(sol, kernel, spy)
        getattr(sol, drill)(*inputs(spec, 4, 16384, "bfloat16"))
        getattr(sol, drill)(*inputs(spec, 4, 16384, "float32"))
        results[f"{drill}/not-taken"] = {"launches": spy.launches}
    # rows of 1e4 + noise in fp16: E[x^2] - E[x]^2 in float32 loses the variance; Welford must not
    sol, spec = _load("layernorm", "solution"), _load("layernorm", "spec")
    sol.MIN_PROGRAMS = 2
    x = (1e4 + 4 * torch.randn(3, 12001, generator=torch.Generator().manual_seed(5))).to(torch.float16)
    w, b = torch.ones(12001, dtype=torch.float16), torch.zeros(12001, dtype=torch.float16)
    results["layernorm/far-from-zero"] = {**compare(sol.layernorm(x, w, b, 1e-5),
                                                    spec.baseline(x.float(), w.float(), b.float(), 1e-5))}
    for (M, H), dtype in itertools.product(SWIGLU, ("bfloat16", "float32")):
        for wide in (False, True):
            sol, spec = _load("swiglu", "solution"), _load("swiglu", "spec")
            spy = Spy(sol.swiglu_flat_kernel, **({"WIDE": True} if wide else {}))
            sol.swiglu_flat_kernel, sol.FLAT_MIN_OUTPUTS = spy, 1
            (gu,) = inputs(spec, M, H, dtype)
            got = sol.swiglu(gu)
            # a gu with padded rows keeps the tiled kernel: the flat one assumes contiguous rows
            padded = torch.zeros(M, 2 * H + 8, dtype=gu.dtype)
            padded[:, :2 * H] = gu
            same = torch.equal(sol.swiglu(padded[:, :2 * H]), got)
            results[f"swiglu/{M}x{H}/{dtype}/{wide}"] = {
                **compare(got, spec.baseline(gu)), "launches": spy.launches, "padded_same": same,
                "block": sol.FLAT_LAUNCH[gu.element_size()][0]}
    for M, N in SWIGLU:                  # bias_gelu's flat kernel (float32 of 2^24+ values on a GPU)
        for wide in (False, True):
            sol, spec = _load("bias_gelu", "solution"), _load("bias_gelu", "spec")
            spy = Spy(sol.bias_gelu_flat_kernel, **({"WIDE": True} if wide else {}))
            sol.bias_gelu_flat_kernel, sol.FLAT_MIN = spy, {4: 1}
            x, bias = inputs(spec, M, N, "float32")
            got = sol.bias_gelu(x, bias)
            taken = list(spy.launches)
            sol.bias_gelu(x.bfloat16(), bias.bfloat16())
            results[f"bias_gelu/{M}x{N}/{wide}"] = {**compare(got, spec.baseline(x, bias)), "launches": taken,
                                                    "block": sol.FLAT_LAUNCH[4][0],
                                                    "tiled_bf16": spy.launches == taken}
    Path(out).write_text(json.dumps(results))


# ---------------------------------------------------------------- the tests

@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    pytest.importorskip("torch")
    pytest.importorskip("triton")
    out = tmp_path_factory.mktemp("two_pass") / "results.json"
    root = str(KERNELS.parent)
    env = {**os.environ, "TRITON_INTERPRET": "1",
           "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, __file__, str(out)], env=env, cwd=root, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text())


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("drill,kernel,N,chunk", ROWS)
def test_two_pass_rows_match_the_baseline(recorded, drill, kernel, N, chunk, wide):
    got = recorded[f"{drill}/{N}/{wide}"]
    assert len(got["launches"]) == 1, got["launches"]
    assert got["launches"][0]["BLOCK_N"] == chunk and got["launches"][0]["WIDE"] is wide
    assert got["err"] <= got["tol"], got


def test_two_pass_only_for_many_rows_of_two_byte_values(recorded):
    for drill, _, _, _ in ROWS[::2]:
        assert recorded[f"{drill}/not-taken"]["launches"] == [], drill


def test_layernorm_two_pass_keeps_the_variance_far_from_zero(recorded):
    got = recorded["layernorm/far-from-zero"]
    assert got["err"] < 0.05, got


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("M,N", SWIGLU)
def test_bias_gelu_flat_path_matches_the_baseline(recorded, M, N, wide):
    got = recorded[f"bias_gelu/{M}x{N}/{wide}"]
    assert len(got["launches"]) == 1, got["launches"]
    assert got["launches"][0]["BLOCK"] == got["block"] and got["launches"][0]["N"] == N
    assert got["launches"][0]["EVEN"] == ((M * N) % got["block"] == 0)
    assert got["launches"][0]["WIDE"] is wide
    assert got["err"] <= got["tol"], got
    assert got["tiled_bf16"]                     # two-byte values keep the tiled kernel


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
@pytest.mark.parametrize("M,H", SWIGLU)
def test_swiglu_flat_path_matches_the_baseline(recorded, M, H, dtype, wide):
    got = recorded[f"swiglu/{M}x{H}/{dtype}/{wide}"]
    assert len(got["launches"]) == 1, got["launches"]              # the padded gu did not take it
    assert got["launches"][0]["BLOCK"] == got["block"]
    assert got["launches"][0]["EVEN"] == ((M * H) % got["block"] == 0)
    assert got["launches"][0]["WIDE"] is wide
    assert got["err"] <= got["tol"], got
    assert got["padded_same"]


if __name__ == "__main__":
    _child(sys.argv[1])
