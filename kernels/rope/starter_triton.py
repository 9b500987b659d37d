"""RoPE in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run rope path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def rope_kernel(q_ptr, cos_ptr, sin_ptr, out_ptr, S, H, HALF,
                stride_qb, stride_qs, stride_qh, stride_qd, stride_cs, stride_ss,
                stride_ob, stride_os, stride_oh, BLOCK_H: tl.constexpr, BLOCK_HALF: tl.constexpr):
    """Suggested shape: one program per (batch, position), BLOCK_H heads at once, so the
    cos/sin row is loaded once and reused. Load the two halves separately.
    """
    pass


def rope(q: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Apply rotary position embedding, half-rotated (rotate_half) layout, for i < D/2:
        out[b, s, h, i]       = q[b, s, h, i] * cos[s, i] - q[b, s, h, i + D/2] * sin[s, i]
        out[b, s, h, i + D/2] = q[b, s, h, i + D/2] * cos[s, i] + q[b, s, h, i] * sin[s, i]

    q: [batch, seq, heads, head_dim] (head_dim even), float32 / float16 / bfloat16, any
       strides (a slice of a fused QKV, a transposed view); cos, sin: float32
       [>= seq, head_dim // 2]. Returns a new contiguous tensor of q's shape and dtype.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("rope: allocate the output and launch your Triton kernel")
