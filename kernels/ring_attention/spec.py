"""Ring attention (context parallel): rank r holds chunk r of the sequence of Q, K and V.

Case shape [H, S, D]: H heads, S the whole sequence, D the head size. Chunks are
torch.tensor_split(..., n, dim=1): contiguous, the first S % n one position longer.
Every rank gets (q_r, k_r, v_r, S, causal) and returns the attention output of its own
queries over the whole sequence: softmax(q_r K^T / sqrt(D) [+ causal mask]) V, with global
positions for the mask.
"""

import torch


def chunks(x, world_size):
    return torch.tensor_split(x, world_size, dim=1)


def make_inputs(case, gen, world_size):
    heads, seq, dim = case["shape"]
    dtype = getattr(torch, case["dtype"])
    q, k, v = (torch.randn(heads, seq, dim, generator=gen, dtype=torch.float64) for _ in range(3))
    if case.get("fill") == "large_logits":          # scores in the hundreds: exp() overflows without the max
        q = q * 30.0
    causal = bool(case.get("causal", False))
    return [(qr.to(dtype).contiguous(), kr.to(dtype).contiguous(), vr.to(dtype).contiguous(), seq, causal)
            for qr, kr, vr in zip(chunks(q, world_size), chunks(k, world_size), chunks(v, world_size))]


def reference(case, inputs, world_size):
    """Full attention over the whole sequence in float64, cut back into the ranks' chunks."""
    q = torch.cat([args[0].to(torch.float64) for args in inputs], dim=1)
    k = torch.cat([args[1].to(torch.float64) for args in inputs], dim=1)
    v = torch.cat([args[2].to(torch.float64) for args in inputs], dim=1)
    scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    if case.get("causal"):
        seq = q.shape[1]
        scores = scores.masked_fill(torch.ones(seq, seq, dtype=torch.bool).triu(1), float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v
    return [part.clone() for part in chunks(out, world_size)]
