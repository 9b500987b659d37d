"""The dropout drill's reference: its Philox stream is tl.rand's, bit for bit, and the mask
it defines behaves like dropout (kept fraction, scale, p = 0, p close to 1)."""

from __future__ import annotations

import importlib.util
import math

import pytest

from .conftest import KERNELS

torch = pytest.importorskip("torch")


def _spec():
    spec = importlib.util.spec_from_file_location("_dropout_spec", KERNELS / "dropout" / "spec.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SPEC = _spec()


SEEDS = [0, 1, 1234, 2 ** 31 + 5, 2 ** 40 + 77, 2 ** 63 - 1]
BASES = (0, 2 ** 31 - 1024)             # int32 offsets from both ends of the range

# tl.rand run by Triton's interpreter in a child process: TRITON_INTERPRET is read once per
# process, so setting it inside a test process that already used Triton (the whole suite)
# has no effect, and the kernel would not run on a CPU.
_TL_RAND = """
import json, sys, torch, triton, triton.language as tl

@triton.jit
def rand_kernel(out_ptr, seed, base, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.rand(seed, base + offs), mask=offs < n)

seeds, bases, path = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
result = {}
for seed in seeds:
    for base in bases:
        out = torch.empty(1000)
        rand_kernel[(1,)](out, seed, base, 1000, BLOCK=1024)
        result[f"{seed}/{base}"] = out
torch.save(result, path)
"""


@pytest.fixture(scope="module")
def tl_rand_streams(tmp_path_factory):
    import json
    import os
    import subprocess
    import sys

    pytest.importorskip("triton")
    path = tmp_path_factory.mktemp("tl_rand") / "streams.pt"
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, "-c", _TL_RAND, json.dumps(SEEDS), json.dumps(list(BASES)), str(path)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return torch.load(path)


@pytest.mark.parametrize("seed", SEEDS)
def test_reference_stream_is_tl_rand_bit_for_bit(seed, tl_rand_streams):
    for base in BASES:
        out = tl_rand_streams[f"{seed}/{base}"]
        expected = SPEC.philox_uniform(seed, base + torch.arange(1000))
        assert torch.equal(out, expected), (seed, base, (out != expected).sum().item())


def test_draws_are_uniform_in_0_1():
    r = SPEC.philox_uniform(99, torch.arange(1 << 18))
    assert r.dtype == torch.float32 and float(r.min()) >= 0.0 and float(r.max()) < 1.0
    counts = torch.histc(r, bins=16, min=0.0, max=1.0)
    expected = r.numel() / 16
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 50, chi2           # 15 degrees of freedom: 50 is far beyond the 99.99th percentile


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9, 0.999])
def test_kept_fraction_and_scale(p):
    M, N = 256, 2048
    x = torch.randn(M, N, generator=torch.Generator().manual_seed(3)).add_(5.0)   # never 0
    y = SPEC.reference(x, p, 777)
    kept = y != 0
    n = kept.numel()
    sigma = math.sqrt(n * p * (1 - p))
    assert abs(int(kept.sum()) - n * (1 - p)) < 6 * sigma + 1
    assert torch.allclose(y[kept], x.double()[kept] / (1 - p), rtol=1e-15, atol=0)


def test_p_zero_is_the_identity_and_masks_follow_the_seed():
    x = torch.randn(64, 781, generator=torch.Generator().manual_seed(4))
    assert torch.equal(SPEC.reference(x, 0.0, 5), x.double())
    a, b = SPEC.keep_mask(5, 0.5, 64, 781, "cpu"), SPEC.keep_mask(5, 0.5, 64, 781, "cpu")
    assert torch.equal(a, b)
    assert not torch.equal(a, SPEC.keep_mask(6, 0.5, 64, 781, "cpu"))
    assert not torch.equal(a, SPEC.keep_mask(5 + 2 ** 32, 0.5, 64, 781, "cpu"))   # the key's high word


def test_chunked_mask_matches_one_pass():
    old = SPEC.CHUNK
    SPEC.CHUNK = 1000
    try:
        chunked = SPEC.keep_mask(11, 0.3, 37, 129, "cpu")
    finally:
        SPEC.CHUNK = old
    assert torch.equal(chunked, SPEC.keep_mask(11, 0.3, 37, 129, "cpu"))
