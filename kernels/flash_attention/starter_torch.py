"""Flash attention forward in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; F.scaled_dot_product_attention (flagged; in a Triton solution also softmax/matmul).
Run it:  studio-drill run flash_attention path/to/this_file.py --lang torch
"""

import torch


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    """Return softmax(q @ k^T / sqrt(D) [+ causal mask]) @ v.

    q, k, v: [batch, heads, seq, head_dim], one dtype (float16 / bfloat16; float32 also
       checked), head_dim 64 or 128, any strides (they may be views of one packed QKV).
    causal: key j is visible to query i only if j <= i.
    Returns a new [batch, heads, seq, head_dim] tensor of q's dtype. Never materialise
    the seq x seq scores in memory.
    """
    raise NotImplementedError("attention: write it with torch primitives")
