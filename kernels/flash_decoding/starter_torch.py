"""Flash-decoding in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; F.scaled_dot_product_attention is flagged. As an exercise,
compute it the split-KV way: per chunk of the context a partial output and its
log-sum-exp, then the merge.
Run it:  studio-drill run flash_decoding path/to/this_file.py --lang torch
"""

import torch


def flash_decoding(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                   cache_seqlens: torch.Tensor) -> torch.Tensor:
    """Return out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b (one decode step).

    q: [B, Hq, D], float16 / bfloat16 (float32 also checked), D = 64 or 128; rows may be
       strided (a view of a fused QKV output).
    k_cache, v_cache: [B, Lmax, Hkv, D] (flash_attn_with_kvcache's layout), q's dtype, the
       head dim contiguous, any other strides. Hq is a multiple of Hkv; query head h reads
       KV head h // (Hq // Hkv).
    cache_seqlens: [B] int32, each in [1, Lmax]: sequence b's context is
       k_cache[b, :cache_seqlens[b]]. The slots after it are spare capacity (NaN in the
       drill's inputs): never let them reach the output.
    Returns a new [B, Hq, D] tensor of q's dtype. Do not modify the inputs.
    """
    raise NotImplementedError("flash_decoding: write it with torch primitives")
