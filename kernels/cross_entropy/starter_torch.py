"""Cross-entropy forward in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; F.cross_entropy / log_softmax / logsumexp (flagged).
Run it:  studio-drill run cross_entropy path/to/this_file.py --lang torch
"""

import torch


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100) -> torch.Tensor:
    """Return the per-row loss: logsumexp(logits[i]) - logits[i, target[i]], 0 where
    target[i] == ignore_index.

    logits: 2-D (rows, vocab), float32 / float16 / bfloat16, possibly non-contiguous;
    target: int64 (rows,). Returns a new float32 (rows,) tensor. Do not modify the inputs.
    """
    raise NotImplementedError("cross_entropy: write it with torch primitives")
