"""Flash-attention drill: inputs, float64 reference, torch baseline, bytes and flops models.

Runs in the drill child only (imports torch). A case's shape is [batch, heads, seq,
head_dim] for non-causal attention, or [batch, heads, seq, head_dim, 1] for causal
attention (the fifth entry is the causal flag; the bench sweep can only pass a shape, so
the flag lives there). q, k, v are [B, H, S, D]; the scale is 1/sqrt(D).

Layouts: contiguous; `packed_qkv` (q, k, v are views into one [B, S, 3, H, D] buffer,
the layout a fused QKV projection produces: seq stride 3*H*D, head stride D).
"""

import math

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import dtype_of


def is_causal(case):
    shape = case["shape"]
    return len(shape) == 5 and shape[4] == 1


def make_inputs(case, gen, device):
    B, H, S, D = case["shape"][:4]
    dtype = dtype_of(case["dtype"])
    if case.get("layout", "contiguous") == "packed_qkv":
        qkv = torch.randn(B, S, 3, H, D, generator=gen).to(dtype).to(device)
        q, k, v = (qkv[:, :, i].transpose(1, 2) for i in range(3))
    else:
        q, k, v = (torch.randn(B, H, S, D, generator=gen).to(dtype).to(device) for _ in range(3))
    return q, k, v, is_causal(case)


def reference(q, k, v, causal):
    """softmax(Q K^T / sqrt(d) [+ causal mask]) V in float64, one (batch, head) at a time
    (the explicit S x S scores of a whole 4096-long batch would not fit in memory)."""
    B, H, S, D = q.shape
    out = torch.empty(B, H, S, D, dtype=torch.float64, device=q.device)
    scale = 1.0 / math.sqrt(D)
    mask = torch.ones(S, S, dtype=torch.bool, device=q.device).tril() if causal else None
    for b in range(B):
        for h in range(H):
            scores = (q[b, h].double() @ k[b, h].double().t()) * scale
            if mask is not None:
                scores = scores.masked_fill(~mask, float("-inf"))
            out[b, h] = torch.softmax(scores, dim=-1) @ v[b, h].double()
    return out


def baseline(q, k, v, causal):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def bytes_moved(case):
    """Read q, k, v and write o once each: 4 * B*H*S*D * itemsize (the flash floor; the
    S x S score matrix never touches memory)."""
    B, H, S, D = case["shape"][:4]
    return 4 * B * H * S * D * torch.empty((), dtype=dtype_of(case["dtype"])).element_size()


def flops(case):
    """Two matmuls (QK^T and PV) of 2*S*S*D each per (batch, head): 4*B*H*S*S*D; causal
    attention does half the work (the usual convention, as in Triton's tutorial)."""
    B, H, S, D = case["shape"][:4]
    total = 4 * B * H * S * S * D
    return total // 2 if is_causal(case) else total
