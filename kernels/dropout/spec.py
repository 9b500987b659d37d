"""Dropout drill: inputs, exact reference of Triton's Philox stream, torch baseline, bytes model.

Runs in the drill child only (imports torch). A case's shape is [M, N] of x. The mask is
fixed by the statement: element (i, j) draws r = tl.rand(seed, i * N + j) (int32 offset)
and is kept when r >= p; kept elements become x / (1 - p), dropped ones 0.

`philox_uniform` recomputes tl.rand in torch (int64 arithmetic), as Triton 3.6 defines it
(triton/language/random.py): Philox-4x32 with 10 rounds, counter (offset, 0, 0, 0) for an
int32 offset, key (seed mod 2^32, seed >> 32); the first word, read as int32 x, folded to
-x - 1 when negative (= ~x), times 4.6566127342e-10 in float32. Triton 3.9 writes the fold
as ~x; the two are the same integer for every int32.

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


def philox_uniform(seed: int, offsets: torch.Tensor) -> torch.Tensor:
    """tl.rand(seed, offsets) for int32 offsets, bit for bit, as float32."""
    c0 = offsets.to(torch.int64) & M32
    c1 = torch.zeros_like(c0)
    c2 = torch.zeros_like(c0)
    c3 = torch.zeros_like(c0)
    k0, k1 = seed & M32, (seed >> 32) & M32
    for _ in range(10):
        lo0, hi0 = _mulhilo(ROUND_A, c0)
        lo2, hi2 = _mulhilo(ROUND_B, c2)
        c0, c1, c2, c3 = hi2 ^ c1 ^ k0, lo2, hi0 ^ c3 ^ k1, lo0
        k0, k1 = (k0 + KEY_A) & M32, (k1 + KEY_B) & M32
    x = c0 - ((c0 & 0x80000000) << 1)                 # the word as a signed int32 value
    x = torch.where(x < 0, -x - 1, x).to(torch.int32)
    return x.to(torch.float32) * torch.tensor(SCALE, dtype=torch.float32, device=x.device)


def keep_mask(seed: int, p: float, M: int, N: int, device) -> torch.Tensor:
    """Boolean (M, N): tl.rand(seed, i * N + j) >= p."""
    total = M * N
    assert total < 2 ** 31, "offsets i * N + j must fit in int32"
    keep = torch.empty(total, dtype=torch.bool, device=device)
    for start in range(0, total, CHUNK):
        offs = torch.arange(start, min(start + CHUNK, total), dtype=torch.int64, device=device)
        keep[start:start + offs.numel()] = philox_uniform(seed, offs) >= p
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
    """x / (1 - p) where tl.rand(seed, i * N + j) >= p, else 0; float64."""
    M, N = x.shape
    keep = keep_mask(seed, p, M, N, x.device)
    return torch.where(keep, x.to(torch.float64) / (1.0 - p), torch.zeros((), dtype=torch.float64,
                                                                        device=x.device))


def baseline(x, p, seed):
    """torch's own dropout (training mode): its mask comes from torch's generator, not
    tl.rand, so it is timed but never compared."""
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
    integer work (about 40 integer multiply-halves and 20 xors per element) and not counted."""
    M, N = case["shape"]
    return M * N
