"""flash_decoding: a split-KV kernel whose combine forgets the per-split max.

Each split runs a correct online softmax and stores its unnormalised accumulator
acc_i = sum_t exp(s_t - m_i) v_t and sum l_i = sum_t exp(s_t - m_i), both relative to its
own running max m_i. The combine adds them as they are, out = sum_i acc_i / sum_i l_i,
without the weights exp(m_i - max_j m_j) that put them on one scale: right only where a
sequence fits in one split (here every context of at most 64 tokens), wrong as soon as two
splits have different maxima. Loads are masked to the length, so the NaN tail is never read.
"""
import math

import torch
import triton
import triton.language as tl

SPLIT_LEN = 64


@triton.jit
def split_kernel(q_ptr, k_ptr, v_ptr, lens_ptr, l_ptr, acc_ptr, qk_scale, Hkv, NUM_SPLITS,
                 stride_qb, stride_qh, stride_kb, stride_kt, stride_kh,
                 stride_vb, stride_vt, stride_vh,
                 G: tl.constexpr, G_PAD: tl.constexpr, D: tl.constexpr, SPLIT_LEN: tl.constexpr,
                 BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    split = tl.program_id(1)
    b = pid // Hkv
    kvh = pid % Hkv
    n = tl.load(lens_ptr + b)
    start = split * SPLIT_LEN
    end = tl.minimum(start + SPLIT_LEN, n)
    offs_g = tl.arange(0, G_PAD)
    offs_d = tl.arange(0, D)
    heads = kvh * G + offs_g
    q = tl.load(q_ptr + b * stride_qb + heads[:, None] * stride_qh + offs_d[None, :],
                mask=(offs_g < G)[:, None], other=0.0).to(tl.float32)
    m_i = tl.full([G_PAD], -float("inf"), tl.float32)
    l_i = tl.zeros([G_PAD], tl.float32)
    acc = tl.zeros([G_PAD, D], tl.float32)
    for tok0 in range(start, end, BLOCK_N):
        toks = tok0 + tl.arange(0, BLOCK_N)
        valid = toks < end
        k = tl.load(k_ptr + b * stride_kb + toks[:, None] * stride_kt + kvh * stride_kh
                    + offs_d[None, :], mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.where(valid[None, :], tl.dot(q, tl.trans(k)) * qk_scale, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + b * stride_vb + toks[:, None] * stride_vt + kvh * stride_vh
                    + offs_d[None, :], mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha[:, None] + tl.dot(p, v)
        m_i = m_new
    live = (offs_g < G) & (offs_g * 0 + start < n)
    row = (b * Hkv * G + heads) * NUM_SPLITS + split
    tl.store(l_ptr + row, l_i, mask=live)                      # m_i is dropped here ...
    tl.store(acc_ptr + row[:, None] * D + offs_d[None, :], acc, mask=live[:, None])


@triton.jit
def combine_kernel(l_ptr, acc_ptr, lens_ptr, out_ptr, Hq, NUM_SPLITS, D: tl.constexpr,
                   SPLIT_LEN: tl.constexpr, SPLITS_PAD: tl.constexpr):
    pid = tl.program_id(0)
    n = tl.load(lens_ptr + pid // Hq)
    offs_s = tl.arange(0, SPLITS_PAD)
    ok = offs_s < (n + SPLIT_LEN - 1) // SPLIT_LEN
    offs_d = tl.arange(0, D)
    l = tl.load(l_ptr + pid * NUM_SPLITS + offs_s, mask=ok, other=0.0)
    acc = tl.load(acc_ptr + (pid * NUM_SPLITS + offs_s)[:, None] * D + offs_d[None, :],
                  mask=ok[:, None], other=0.0)
    out = tl.sum(acc, 0) / tl.sum(l, 0)                        # ... so no exp(m_i - M) weights
    tl.store(out_ptr + pid * D + offs_d, out.to(out_ptr.dtype.element_ty))


def flash_decoding(q, k_cache, v_cache, cache_seqlens):
    B, Hq, D = q.shape
    _, Lmax, Hkv, _ = k_cache.shape
    G = Hq // Hkv
    splits = triton.cdiv(Lmax, SPLIT_LEN)
    out = torch.empty((B, Hq, D), dtype=q.dtype, device=q.device)
    l = torch.empty((B * Hq, splits), dtype=torch.float32, device=q.device)
    acc = torch.empty((B * Hq, splits, D), dtype=torch.float32, device=q.device)
    split_kernel[(B * Hkv, splits)](
        q, k_cache, v_cache, cache_seqlens, l, acc, 1.4426950408889634 / math.sqrt(D), Hkv, splits,
        q.stride(0), q.stride(1), *k_cache.stride()[:3], *v_cache.stride()[:3],
        G=G, G_PAD=max(16, triton.next_power_of_2(G)), D=D, SPLIT_LEN=SPLIT_LEN, BLOCK_N=32)
    combine_kernel[(B * Hq,)](l, acc, cache_seqlens, out, Hq, splits, D=D, SPLIT_LEN=SPLIT_LEN,
                              SPLITS_PAD=triton.next_power_of_2(splits))
    return out
