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


@pytest.mark.parametrize("seed", [0, 1, 1234, 2 ** 31 + 5, 2 ** 40 + 77, 2 ** 63 - 1])
def test_reference_stream_is_tl_rand_bit_for_bit(seed, monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")   # read when a kernel is defined
    triton = pytest.importorskip("triton")
    tl = pytest.importorskip("triton.language")

    @triton.jit
    def rand_kernel(out_ptr, seed, base, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.rand(seed, base + offs), mask=offs < n)

    for base in (0, 2 ** 31 - 1024):            # int32 offsets from both ends of the range
        out = torch.empty(1000)
        rand_kernel[(1,)](out, seed, base, 1000, BLOCK=1024)
        expected = SPEC.philox_uniform(seed, base + torch.arange(1000))
        assert torch.equal(out, expected), (seed, base)


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
