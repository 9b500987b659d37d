"""The dropout drill's reference: its Philox stream is Triton's, bit for bit (the four
words of tl.rand4x, element e taking word e % 4 of counter e // 4), and the mask it defines
behaves like dropout (kept fraction, scale, p = 0, p close to 1)."""

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
BASES = (0, 2 ** 31 - 1024)             # int32 element indices from both ends of the range
COUNT = 1000                            # elements per (seed, base); not a multiple of 4 past base

# Triton run by its interpreter in a child process: TRITON_INTERPRET is read once per
# process, so setting it inside a test process that already used Triton (the whole suite)
# has no effect, and the kernel would not run on a CPU. Per (seed, base) the child stores
# the drill's stream for elements base .. base + COUNT - 1, computed per element from
# tl.rand4x(seed, e // 4) and word e % 4; the four blocks of tl.rand4x on the counters of
# those elements; and tl.rand(seed, e), the one-call-per-element stream the drill does not use.
_TL_STREAMS = """
import json, sys, torch, triton, triton.language as tl

@triton.jit
def streams_kernel(drill_ptr, words_ptr, rand_ptr, seed, base, n, n_counters, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    e = base + offs
    r0, r1, r2, r3 = tl.rand4x(seed, e // 4)
    word = e % 4
    r = tl.where(word == 0, r0, tl.where(word == 1, r1, tl.where(word == 2, r2, r3)))
    tl.store(drill_ptr + offs, r, mask=offs < n)
    tl.store(rand_ptr + offs, tl.rand(seed, e), mask=offs < n)
    w0, w1, w2, w3 = tl.rand4x(seed, base // 4 + offs)
    cmask = offs < n_counters
    tl.store(words_ptr + offs, w0, mask=cmask)
    tl.store(words_ptr + BLOCK + offs, w1, mask=cmask)
    tl.store(words_ptr + 2 * BLOCK + offs, w2, mask=cmask)
    tl.store(words_ptr + 3 * BLOCK + offs, w3, mask=cmask)

seeds, bases, count, path = json.loads(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
result = {}
for seed in seeds:
    for base in bases:
        n_counters = (base + count + 3) // 4 - base // 4
        drill, rand = torch.empty(count), torch.empty(count)
        words = torch.empty(4, 1024)
        streams_kernel[(1,)](drill, words, rand, seed, base, count, n_counters, BLOCK=1024)
        result[f"{seed}/{base}"] = {"drill": drill, "words": words[:, :n_counters].clone(), "rand": rand}
torch.save(result, path)
"""


@pytest.fixture(scope="module")
def tl_streams(tmp_path_factory):
    import json
    import os
    import subprocess
    import sys

    pytest.importorskip("triton")
    path = tmp_path_factory.mktemp("tl_rand") / "streams.pt"
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    done = subprocess.run([sys.executable, "-c", _TL_STREAMS, json.dumps(SEEDS), json.dumps(list(BASES)),
                           str(COUNT), str(path)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return torch.load(path)


@pytest.mark.parametrize("seed", SEEDS)
def test_reference_stream_is_rand4x_word_e_mod_4_bit_for_bit(seed, tl_streams):
    for base in BASES:
        out = tl_streams[f"{seed}/{base}"]["drill"]
        expected = SPEC.stream(seed, base + torch.arange(COUNT))
        assert torch.equal(out, expected), (seed, base, (out != expected).sum().item())


@pytest.mark.parametrize("seed", SEEDS)
def test_reference_words_are_rand4x_bit_for_bit(seed, tl_streams):
    for base in BASES:
        words = tl_streams[f"{seed}/{base}"]["words"]
        counters = base // 4 + torch.arange(words.shape[1])
        for w, expected in enumerate(SPEC.philox_uniform4(seed, counters)):
            assert torch.equal(words[w], expected), (seed, base, w, (words[w] != expected).sum().item())


@pytest.mark.parametrize("seed", SEEDS)
def test_word_0_is_tl_rand_and_the_per_element_stream_is_another(seed, tl_streams):
    for base in BASES:
        rand = tl_streams[f"{seed}/{base}"]["rand"]
        e = base + torch.arange(COUNT)
        assert torch.equal(rand, SPEC.philox_uniform(seed, e))
        assert int((rand == SPEC.stream(seed, e)).sum()) < COUNT // 100   # tl.rand(seed, e) is not the mask


def test_keep_mask_uses_one_call_per_four_elements():
    M, N = 7, 13                          # N odd: counters straddle rows
    e = torch.arange(M * N)
    keep = SPEC.keep_mask(21, 0.4, M, N, "cpu").reshape(-1)
    assert torch.equal(keep, SPEC.stream(21, e) >= 0.4)
    words = SPEC.philox_uniform4(21, e // 4)
    by_word = torch.stack(words)[e % 4, e]
    assert torch.equal(keep, by_word >= 0.4)


def test_draws_are_uniform_in_0_1():
    r = SPEC.stream(99, torch.arange(1 << 18))
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
