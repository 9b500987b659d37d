"""Paged-attention decode in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run paged_attention_decode path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def paged_decode_kernel(q_ptr, k_ptr, v_ptr, table_ptr, lens_ptr, out_ptr, qk_scale, Hkv,
                        stride_qb, stride_qh, stride_kb, stride_ks, stride_kh,
                        stride_vb, stride_vs, stride_vh, stride_tb, stride_ob, stride_oh,
                        G: tl.constexpr, G_PAD: tl.constexpr, HEAD_DIM: tl.constexpr,
                        PAGE: tl.constexpr, BLOCK_N: tl.constexpr):
    """Suggested shape: grid (B * Hkv,), later (B * Hkv, splits). A program owns sequence b,
    KV head kvh and its G query heads (a [G_PAD, HEAD_DIM] block of q, G_PAD >= 16 rows for
    tl.dot). Walk tokens 0 .. lens[b]-1 in BLOCK_N steps: page = block_table[b, tok // PAGE],
    slot = tok % PAGE; load K and V rows masked to tok < lens[b]; online softmax (running
    max m, sum l, rescaled accumulator) as in flash attention; store acc / l for the real heads.
    """
    pass


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

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("paged_attention_decode: allocate the output and launch your Triton kernel")
