"""MoE top-k gating in PyTorch: your solution (see the statement for the rules).

Any torch op may be used (torch.topk's order among equal values is not specified: mind the
tie rule). Run it:  studio-drill run moe_gating path/to/this_file.py --lang torch
"""

import torch


def moe_gating(logits: torch.Tensor, k: int, renormalize: bool) -> torch.Tensor:
    """Return one float32 vector [weights | ids | counts | offsets | perm] (3*T*k + 2*E + 1).

    logits: [T, E] float32 / float16 / bfloat16. weights/ids: each token's k best experts,
    best first, ties to the lower id; counts [E]; offsets [E+1] (exclusive prefix);
    perm [T*k]: slots t*k + j grouped by expert, ascending within an expert.
    """
    raise NotImplementedError("moe_gating: write it with torch primitives")
