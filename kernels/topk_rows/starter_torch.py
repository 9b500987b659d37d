"""Row-wise top-k in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives (max / argmax and masking, comparisons, cumsum, gather);
torch.topk, sort, argsort, msort, kthvalue, median and mode are flagged.
Run it:  studio-drill run topk_rows path/to/this_file.py --lang torch
"""

import torch


def topk_rows(x: torch.Tensor, k: int) -> torch.Tensor:
    """Return an int64 (M, k) tensor: in row i, the columns of the k largest values of x[i],
    values descending; equal values (+0.0 and -0.0 included) in increasing column order.

    x: 2-D (M, N), float32 / float16 / bfloat16, possibly non-contiguous; no NaN, -inf
    allowed. 1 <= k <= min(N, 64). Do not modify x.
    """
    raise NotImplementedError("topk_rows: write it with torch primitives")
