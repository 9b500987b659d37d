"""Dropout with Triton's Philox stream, in PyTorch: your solution (see the statement).

Build it from torch primitives: F.dropout, torch.bernoulli and torch.rand are flagged, and
their masks would not be the drill's anyway. Recompute Philox-4x32-10 with int64 tensors
(the statement spells out every step): one call per counter e // 4 gives the draws of
the four elements e = 4c .. 4c + 3.
Run it:  studio-drill run dropout path/to/this_file.py --lang torch
"""

import torch


def dropout(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    """Return y (M, N): y[i, j] = x[i, j] / (1 - p) if r >= p, else 0, where r is word
    e % 4 of the Philox call on counter e // 4, e = i * N + j, as a uniform (see the
    statement; tl.rand4x(seed, e // 4)[e % 4] in Triton).

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly non-contiguous. 0 <= p < 1;
    0 <= seed < 2^63. Returns a new contiguous tensor of x's dtype. Do not modify x.
    """
    raise NotImplementedError("dropout: write it with torch primitives")
