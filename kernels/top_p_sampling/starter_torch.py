"""Top-p (nucleus) sampling in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives (softmax, sort, cumsum, searchsorted, gather are fine);
torch.multinomial is flagged: the draw is given, as u.
Run it:  studio-drill run top_p_sampling path/to/this_file.py --lang torch
"""

import torch


def top_p_sampling(logits: torch.Tensor, p: torch.Tensor, u: torch.Tensor) -> torch.Tensor:
    """Return ids (M,) int64: for each row, softmax(logits[i]) ranked descending (ties: lower
    id first), the smallest prefix with mass >= p[i] kept (all if none reaches it), and the
    kept token whose interval of the cumulative mass contains u[i] * (kept mass).

    logits: 2-D (M, V), float32 / float16 / bfloat16, possibly non-contiguous. p, u: (M,)
    float32. Compute in float32. Do not modify the inputs.
    """
    raise NotImplementedError("top_p_sampling: write it with torch primitives")
