"""Dropout drill: inputs, exact reference of the Philox stream, torch baseline, bytes model.

Runs in the drill child only (imports torch). A case's shape is [M, N] of x. The mask is
fixed by the statement: element (i, j), logical index e = i * N + j (int32), draws

    r = word e % 4 of Philox-4x32-10(counter (e // 4, 0, 0, 0), key (seed mod 2^32, seed >> 32))

turned into a float32 uniform in [0, 1), and is kept when r >= p; kept elements become
x / (1 - p), dropped ones 0. One Philox call serves four consecutive elements: it is what
`tl.rand4x(seed, e // 4)` returns (its four results, in order, are words 0..3), and what
cuRAND's curand_uniform4 and torch's CUDA dropout do with a Philox call.

`philox_words` recomputes the four words in torch (int64 arithmetic), as Triton 3.6 and 3.9
define them (triton/language/random.py): randint4x of an int32 offset runs Philox-4x32 with
10 rounds on counter (offset, 0, 0, 0) (the second word is the offset's high half, 0 for a
32-bit offset) and key (seed mod 2^32, seed >> 32). `uniform` is tl.rand's conversion,
applied by rand4x to each word alike: the word read as int32 v, folded to -v - 1 when
negative (= ~v), times 4.6566127342e-10 in float32. Triton 3.6 writes the fold as -v - 1,
Triton 3.9 as ~v; the two are the same integer for every int32.

Extra case keys: p (default 0.1; rounded to float32 so a float32 and a float64 comparison
with r agree), seed (0 <= seed < 2^63; default: drawn per trial from the case's generator
in [0, 2^40), so no mask can be learnt by heart).
"""

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import case_tensor, dtype_of

M32 = 0xFFFFFFFF
ROUND_A, ROUND_B = 0xD2511F53, 0xCD9E8D57
KEY_A, KEY_B = 0x9E3779B9, 0xBB67AE85
SCALE = 4.6566127342e-10                  # float32 in Triton: the largest s with (2^31 - 1) * s < 1
CHUNK = 1 << 22                           # offsets per chunk of the reference (bounds its memory)


def _mulhilo(a: int, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(low, high) 32-bit words of a * b for a constant a < 2^32 and int64 b in [0, 2^32):
    b split in 16-bit halves so every partial product stays below 2^48 (exact in int64)."""
    lo_part = b & 0xFFFF
    hi_part = b >> 16
    low = lo_part * a + ((hi_part * a) & 0xFFFF) * 65536
    high = ((hi_part * a) >> 16) + (low >> 32)
    return low & M32, high & M32


def philox_words(seed: int, counters: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """The four 32-bit words (int64 tensors in [0, 2^32)) of Philox-4x32-10 with counter
    (c, 0, 0, 0) for each int32 c in `counters` and key (seed mod 2^32, seed >> 32): the words
    tl.randint4x(seed, c) returns, in its order."""
    c0 = counters.to(torch.int64) & M32
    c1 = torch.zeros_like(c0)
    c2 = torch.zeros_like(c0)
    c3 = torch.zeros_like(c0)
    k0, k1 = seed & M32, (seed >> 32) & M32
    for _ in range(10):
        lo0, hi0 = _mulhilo(ROUND_A, c0)
        lo2, hi2 = _mulhilo(ROUND_B, c2)
        c0, c1, c2, c3 = hi2 ^ c1 ^ k0, lo2, hi0 ^ c3 ^ k1, lo0
        k0, k1 = (k0 + KEY_A) & M32, (k1 + KEY_B) & M32
    return c0, c1, c2, c3


def uniform(word: torch.Tensor) -> torch.Tensor:
    """A 32-bit word (int64 in [0, 2^32)) to float32 in [0, 1), as tl.rand converts it."""
    v = word - ((word & 0x80000000) << 1)             # the word as a signed int32 value
    v = torch.where(v < 0, -v - 1, v).to(torch.int32)
    return v.to(torch.float32) * torch.tensor(SCALE, dtype=torch.float32, device=v.device)


def philox_uniform4(seed: int, counters: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """tl.rand4x(seed, counters) for int32 counters, bit for bit: four float32 tensors."""
    return tuple(uniform(w) for w in philox_words(seed, counters))


def philox_uniform(seed: int, offsets: torch.Tensor) -> torch.Tensor:
    """tl.rand(seed, offsets) for int32 offsets, bit for bit (word 0 only): not the drill's
    stream, kept to check the Philox rounds against Triton and to tell the streams apart."""
    return uniform(philox_words(seed, offsets)[0])


def stream(seed: int, elements: torch.Tensor) -> torch.Tensor:
    """The drill's draw r of each logical index e in `elements` (0 <= e < 2^31): word e % 4 of
    Philox(counter e // 4), as float32."""
    e = elements.to(torch.int64)
    words = torch.stack(philox_uniform4(seed, e // 4))          # (4, n)
    return words.gather(0, (e % 4).unsqueeze(0)).squeeze(0)


def keep_mask(seed: int, p: float, M: int, N: int, device) -> torch.Tensor:
    """Boolean (M, N): stream(seed, i * N + j) >= p, one Philox call per four elements."""
    total = M * N
    assert total < 2 ** 31, "offsets i * N + j must fit in int32"
    assert CHUNK % 4 == 0, "a chunk must start on a Philox counter boundary"
    keep = torch.empty(total, dtype=torch.bool, device=device)
    for start in range(0, total, CHUNK):
        stop = min(start + CHUNK, total)
        counters = torch.arange(start // 4, (stop + 3) // 4, dtype=torch.int64, device=device)
        r = torch.stack(philox_uniform4(seed, counters), dim=1).reshape(-1)   # e = 4 * c + word
        keep[start:stop] = r[:stop - start] >= p
    return keep.view(M, N)


def case_p(case) -> float:
    p = float(torch.tensor(float(case.get("p", 0.1)), dtype=torch.float32))
    if not 0.0 <= p < 1.0:
        raise ValueError(f"p must be in [0, 1), got {p}")
    return p


def make_inputs(case, gen, device):
    x = case_tensor(case, gen, device)
    seed = int(case["seed"]) if "seed" in case else int(torch.randint(0, 2 ** 40, (1,), generator=gen))
    if not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be in [0, 2^63), got {seed}")
    return (x, case_p(case), seed)


def reference(x, p, seed):
    """x / (1 - p) where stream(seed, i * N + j) >= p, else 0; float64."""
    M, N = x.shape
    keep = keep_mask(seed, p, M, N, x.device)
    return torch.where(keep, x.to(torch.float64) / (1.0 - p), torch.zeros((), dtype=torch.float64,
                                                                        device=x.device))


def baseline(x, p, seed):
    """torch's own dropout (training mode): its mask comes from torch's generator, not
    the drill's Philox stream, so it is timed but never compared."""
    return F.dropout(x, p, training=True)


def output_dtype(x, p, seed):
    return x.dtype


def bytes_moved(case):
    """Read x and write y: 2 * M * N * itemsize (the mask is computed, never stored)."""
    M, N = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return 2 * M * N * itemsize


def flops(case):
    """Counted as 1 per element (the multiply by 1 / (1 - p)); the Philox rounds are
    integer work and not counted: per Philox call 20 32x32->64-bit multiplies and 40 xors
    (60 to 80 integer instructions), shared by four elements, so 15 to 20 per element."""
    M, N = case["shape"]
    return M * N
