"""Paged-attention decode in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; F.scaled_dot_product_attention is flagged.
Run it:  studio-drill run paged_attention_decode path/to/this_file.py --lang torch
"""

import torch


def paged_attention_decode(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                           block_table: torch.Tensor, context_lens: torch.Tensor) -> torch.Tensor:
    """Return out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b (one decode step).

    q: [B, Hq, D], float16 / bfloat16 (float32 also checked), D = 64 or 128; rows may be
       strided (a view of a fused QKV output).
    k_cache, v_cache: [num_blocks, block_size, Hkv, D], q's dtype, Hq a multiple of Hkv;
       query head h reads KV head h // (Hq // Hkv). Any block stride.
    block_table: [B, max_blocks] int32; token t of sequence b is in block
       block_table[b, t // block_size], slot t % block_size. Entries past a sequence's
       last block are garbage: never use them.
    context_lens: [B] int32, each >= 1. Slots past a sequence's last token are stale.
    Returns a new [B, Hq, D] tensor of q's dtype. Do not modify the inputs.
    """
    raise NotImplementedError("paged_attention_decode: write it with torch primitives")
