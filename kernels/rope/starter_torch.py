"""RoPE in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; complex-number tricks (view_as_complex / polar) are flagged.
Run it:  studio-drill run rope path/to/this_file.py --lang torch
"""

import torch


def rope(q: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Apply rotary position embedding, half-rotated (rotate_half) layout, for i < D/2:
        out[b, s, h, i]       = q[b, s, h, i] * cos[s, i] - q[b, s, h, i + D/2] * sin[s, i]
        out[b, s, h, i + D/2] = q[b, s, h, i + D/2] * cos[s, i] + q[b, s, h, i] * sin[s, i]

    q: [batch, seq, heads, head_dim] (head_dim even), float32 / float16 / bfloat16, any
       strides (a slice of a fused QKV, a transposed view); cos, sin: float32
       [>= seq, head_dim // 2]. Returns a new contiguous tensor of q's shape and dtype.
    """
    raise NotImplementedError("rope: write it with torch primitives")
