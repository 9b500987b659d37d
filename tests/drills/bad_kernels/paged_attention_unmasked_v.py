"""paged_attention_decode: masks the scores but not the loads (0 * NaN = NaN).

Loads whole tiles of tokens, bounded only by the block table's width: past a sequence's
last token that reads the stale slots of its last page and the pages of the garbage
table entries. The scores of those tokens are masked to -inf, so p = 0 there, but their
V rows are NaN in the drill's cache and p * v = 0 * NaN = NaN. Right only where every
tile is full (contexts that are multiples of the tile).
"""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def kernel(q_ptr, k_ptr, v_ptr, table_ptr, lens_ptr, out_ptr, qk_scale, Hkv, max_blocks,
           stride_qb, stride_qh, stride_kb, stride_ks, stride_kh, stride_vb, stride_vs, stride_vh,
           stride_tb, G: tl.constexpr, G_PAD: tl.constexpr, D: tl.constexpr, PAGE: tl.constexpr,
           BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    b = pid // Hkv
    kvh = pid % Hkv
    n = tl.load(lens_ptr + b)
    offs_g = tl.arange(0, G_PAD)
    offs_d = tl.arange(0, D)
    heads = kvh * G + offs_g
    q = tl.load(q_ptr + b * stride_qb + heads[:, None] * stride_qh + offs_d[None, :],
                mask=(offs_g < G)[:, None], other=0.0).to(tl.float32)
    m_i = tl.full([G_PAD], -float("inf"), tl.float32)
    l_i = tl.zeros([G_PAD], tl.float32)
    acc = tl.zeros([G_PAD, D], tl.float32)
    for tok0 in range(0, n, BLOCK_N):
        toks = tok0 + tl.arange(0, BLOCK_N)
        in_table = toks < max_blocks * PAGE                     # the bug: not toks < n
        page = tl.load(table_ptr + b * stride_tb + toks // PAGE, mask=in_table, other=0)
        slot = toks % PAGE
        k = tl.load(k_ptr + (page * stride_kb + slot * stride_ks + kvh * stride_kh)[:, None]
                    + offs_d[None, :], mask=in_table[:, None], other=0.0).to(tl.float32)
        s = tl.dot(q, tl.trans(k)) * qk_scale
        s = tl.where((toks < n)[None, :], s, -float("inf"))     # scores masked: p = 0 there
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + (page * stride_vb + slot * stride_vs + kvh * stride_vh)[:, None]
                    + offs_d[None, :], mask=in_table[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha[:, None] + tl.dot(p, v)               # ... but 0 * NaN = NaN
        m_i = m_new
    tl.store(out_ptr + (b * Hkv * G + heads)[:, None] * D + offs_d[None, :],
             (acc / l_i[:, None]).to(out_ptr.dtype.element_ty), mask=(offs_g < G)[:, None])


def paged_attention_decode(q, k_cache, v_cache, block_table, context_lens):
    B, Hq, D = q.shape
    _, page, Hkv, _ = k_cache.shape
    G = Hq // Hkv
    out = torch.empty((B, Hq, D), dtype=q.dtype, device=q.device)
    kernel[(B * Hkv,)](q, k_cache, v_cache, block_table, context_lens, out,
                       1.4426950408889634 / math.sqrt(D), Hkv, block_table.shape[1],
                       q.stride(0), q.stride(1), *k_cache.stride()[:3], *v_cache.stride()[:3],
                       block_table.stride(0), G=G, G_PAD=max(16, triton.next_power_of_2(G)), D=D,
                       PAGE=page, BLOCK_N=16)
    return out
