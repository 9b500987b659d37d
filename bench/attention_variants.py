"""Variants of the flash_attention reference solution's kernel, for bench/launch_tuning.py (#21).

The solution (kernels/flash_attention/solution.py) sat at 0.69-0.83x SDPA on the H200. This
module holds one kernel with three switches, each a change the solution could take:

- FMA: the row max is taken over the raw scores and scaled once per row, so each score
  costs one fused multiply-add (score * scale - max) before exp2, where the solution spends
  a multiply and a subtract (Triton's 06-fused-attention tutorial does the same);
- TMA: Q, K and V blocks come through host-built tensor descriptors ([B, H, S, D], one
  [1, 1, rows, D] box per load): Hopper's tensor memory accelerator copies them to shared
  memory, rows past S read as zeros, and O is stored through one too;
- WS: the key loop is a `tl.range(..., warp_specialize=True)`, asking the compiler to split
  loads, MMAs and the softmax into separate warp groups;
- PIPE (pointer loads, FMA scores): the mask-free loop issues block j+1's Q K^T before block
  j's softmax, by hand.

It also times the solution's own Hopper kernels (Gluon; calls 46-54) at other tiles: `gluon`
(one partition) and `gluon-ws` (warp-specialised, 2-3 consumer warp groups), on an sm_90 GPU.

`variants(shape, sol)` returns (name, fn(q, k, v, causal) -> o) for each switch set and tile, plus
SDPA restricted to each of its backends, so one run also says which backend SDPA's figure
comes from. launch_tuning.py checks every one against the drill's baseline before timing it.
"""

from __future__ import annotations

import math

import torch
import triton
import triton.language as tl


@triton.jit
def _inner(acc, l_i, m_i, q, k_src, v_src, b, h, offs_m, offs_n, lo, hi, S, qk_scale,
           stride_ks, stride_vs, MASKED: tl.constexpr, CAUSAL: tl.constexpr,
           BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
           FMA: tl.constexpr, TMA: tl.constexpr, WS: tl.constexpr):
    if not TMA:
        k_src += lo * stride_ks
        v_src += lo * stride_vs
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=WS):
        cols = start_n + offs_n
        if TMA:
            k = k_src.load([b, h, start_n, 0]).reshape(BLOCK_N, HEAD_DIM).T
        elif MASKED:
            k = tl.load(k_src, mask=cols[None, :] < S, other=0.0)
        else:
            k = tl.load(k_src)
        qk = tl.dot(q, k)
        if MASKED:
            valid = cols[None, :] < S
            if CAUSAL:
                valid = valid & (offs_m[:, None] >= cols[None, :])
            qk = tl.where(valid, qk * qk_scale, -float("inf"))
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.exp2(qk - m_new[:, None])
        elif FMA:
            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            p = tl.exp2(qk * qk_scale - m_new[:, None])
        else:
            qk = qk * qk_scale
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        if TMA:
            v = v_src.load([b, h, start_n, 0]).reshape(BLOCK_N, HEAD_DIM)
        elif MASKED:
            v = tl.load(v_src, mask=cols[:, None] < S, other=0.0)
        else:
            v = tl.load(v_src)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
        if not TMA:
            k_src += BLOCK_N * stride_ks
            v_src += BLOCK_N * stride_vs
    return acc, l_i, m_i


@triton.jit
def _softmax_pv(acc, l_i, m_i, qk, v, qk_scale):
    m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
    p = tl.exp2(qk * qk_scale - m_new[:, None])
    alpha = tl.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
    return acc, l_i, m_new


@triton.jit
def _inner_pipelined(acc, l_i, m_i, q, k_ptrs, v_ptrs, lo, hi, stride_ks, stride_vs,
                     qk_scale, BLOCK_N: tl.constexpr):
    """The mask-free loop with the scores one key block ahead: block j+1's Q K^T is issued
    before block j's softmax, and only the loop's next turn reads it, so the compiler may
    leave that wgmma in flight while the softmax runs (FlashAttention-3's intra-warpgroup
    overlap, written by hand)."""
    if hi > lo:
        k_ptrs += lo * stride_ks
        v_ptrs += lo * stride_vs
        qk = tl.dot(q, tl.load(k_ptrs))
        for _ in range(lo, hi - BLOCK_N, BLOCK_N):
            k_ptrs += BLOCK_N * stride_ks
            qk_next = tl.dot(q, tl.load(k_ptrs))
            acc, l_i, m_i = _softmax_pv(acc, l_i, m_i, qk, tl.load(v_ptrs), qk_scale)
            v_ptrs += BLOCK_N * stride_vs
            qk = qk_next
        acc, l_i, m_i = _softmax_pv(acc, l_i, m_i, qk, tl.load(v_ptrs), qk_scale)
    return acc, l_i, m_i


@triton.jit
def attn_variant_kernel(q_src, k_src, v_src, o_src, qk_scale, H, S,
                        stride_qb, stride_qh, stride_qs,
                        stride_kb, stride_kh, stride_ks,
                        stride_vb, stride_vh, stride_vs,
                        stride_ob, stride_oh, stride_os,
                        HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        FMA: tl.constexpr, TMA: tl.constexpr, WS: tl.constexpr,
                        PIPE: tl.constexpr = False):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    b64 = b.to(tl.int64)
    h64 = h.to(tl.int64)
    if TMA:
        q = q_src.load([b, h, start_m * BLOCK_M, 0]).reshape(BLOCK_M, HEAD_DIM)
        k_ptrs = k_src
        v_ptrs = v_src
    else:
        q = tl.load(q_src + b64 * stride_qb + h64 * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :],
                    mask=offs_m[:, None] < S, other=0.0)
        k_ptrs = k_src + b64 * stride_kb + h64 * stride_kh + offs_n[None, :] * stride_ks + offs_d[:, None]
        v_ptrs = v_src + b64 * stride_vb + h64 * stride_vh + offs_n[:, None] * stride_vs + offs_d[None, :]

    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    if CAUSAL:
        full_hi = start_m * BLOCK_M
        tail_hi = tl.minimum((start_m + 1) * BLOCK_M, S)
    else:
        full_hi = (S // BLOCK_N) * BLOCK_N
        tail_hi = S
    if PIPE:
        acc, l_i, m_i = _inner_pipelined(acc, l_i, m_i, q, k_ptrs, v_ptrs, 0, full_hi, stride_ks, stride_vs,
                                         qk_scale, BLOCK_N)
    else:
        acc, l_i, m_i = _inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, b, h, offs_m, offs_n, 0, full_hi, S, qk_scale,
                               stride_ks, stride_vs, False, CAUSAL, BLOCK_N, HEAD_DIM, FMA, TMA, WS)
    acc, l_i, m_i = _inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, b, h, offs_m, offs_n, full_hi, tail_hi, S,
                           qk_scale, stride_ks, stride_vs, True, CAUSAL, BLOCK_N, HEAD_DIM, FMA, TMA, False)
    acc = acc / l_i[:, None]
    if TMA:
        o_src.store([b, h, start_m * BLOCK_M, 0], acc.to(o_src.dtype).reshape(1, 1, BLOCK_M, HEAD_DIM))
    else:
        o_ptrs = o_src + b64 * stride_ob + h64 * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :]
        tl.store(o_ptrs, acc.to(o_src.dtype.element_ty), mask=offs_m[:, None] < S)


def launch(q, k, v, causal, bm, bn, warps, stages, fma, tma, ws, pipe=False):
    from triton.tools.tensor_descriptor import TensorDescriptor

    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    args = [q, k, v, o]
    if tma:
        boxes = ([1, 1, bm, D], [1, 1, bn, D], [1, 1, bn, D], [1, 1, bm, D])
        args = [TensorDescriptor(t, list(t.shape), list(t.stride()), box) for t, box in zip(args, boxes)]
    assert q.stride(3) == k.stride(3) == v.stride(3) == 1
    attn_variant_kernel[(triton.cdiv(S, bm), B * H)](
        *args, 1.0 / math.sqrt(D) * 1.4426950408889634, H, S,
        q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2), o.stride(0), o.stride(1), o.stride(2),
        HEAD_DIM=D, CAUSAL=bool(causal), BLOCK_M=bm, BLOCK_N=bn, FMA=fma, TMA=tma, WS=ws, PIPE=pipe,
        num_warps=warps, num_stages=stages)
    return o


TILES = [(128, 64, 4, 3), (128, 64, 8, 3), (128, 128, 8, 2), (128, 128, 8, 3), (128, 64, 8, 4)]
SWITCHES = [("fma", True, False, False), ("fma+tma", True, True, False),
            ("fma+ws", True, False, True), ("fma+tma+ws", True, True, True)]


# head_dim -> tiles (BLOCK_M, BLOCK_N, K/V stages, warps) of the solution's Hopper (Gluon) kernel
GLUON_TILES = {128: [(128, 128, 2, 8), (128, 64, 3, 8), (128, 64, 4, 8)],
               64: [(128, 128, 3, 8), (128, 128, 2, 8), (128, 64, 4, 8), (64, 64, 4, 4), (64, 128, 3, 4),
                    (64, 64, 3, 4)]}
# head_dim -> tiles (BLOCK_N, K/V stages, consumer warp groups) of its warp-specialised kernel
# (ping-pong; BLOCK_M = 64 x consumer groups)
GLUON_WS_TILES = {128: [(128, 2, 2), (64, 3, 3)], 64: [(128, 2, 2), (128, 3, 3), (64, 4, 3), (128, 2, 3), (64, 4, 2)]}


def variants(shape, sol):
    """(name, fn(q, k, v, causal) -> o) for the solution's (`sol`, the loaded module) Hopper
    kernels at other tiles, every switch set x tile of the kernel here, then SDPA per backend."""
    out = []
    for bm, bn, stages, warps in GLUON_TILES.get(shape[3], []) if sol.gluon is not None else []:
        out.append((f"gluon bm={bm} bn={bn} st={stages} w={warps}",
                    lambda q, k, v, c, a=(bm, bn, stages, warps): sol.attention_hopper(q, k, v, c, *a)))
    for bn, stages, groups in GLUON_WS_TILES.get(shape[3], []) if sol.gluon is not None else []:
        out.append((f"gluon-ws bm={64 * groups} bn={bn} st={stages} groups={groups}",
                    lambda q, k, v, c, a=(64 * groups, bn, stages, 0, groups): sol.attention_hopper(q, k, v, c, *a)))
    for (label, fma, tma, ws), (bm, bn, warps, stages) in ((s, t) for s in SWITCHES for t in TILES):
        if ws and warps < 8:
            continue       # Triton 3.6's Hopper warp specialisation fails to compile with 4 warps
        out.append((f"{label} bm={bm} bn={bn} w={warps} s={stages}",
                    (lambda q, k, v, c, a=(bm, bn, warps, stages, fma, tma, ws): launch(q, k, v, c, *a))))
    # the mask-free loop with Q K^T issued one block ahead (same tile as the best FMA one)
    out.append(("fma+pipe bm=128 bn=64 w=8 s=3",
                lambda q, k, v, c: launch(q, k, v, c, 128, 64, 8, 3, True, False, False, True)))
    from torch.nn.attention import SDPBackend, sdpa_kernel

    for backend in ("FLASH_ATTENTION", "CUDNN_ATTENTION", "EFFICIENT_ATTENTION"):
        def sdpa(q, k, v, c, which=getattr(SDPBackend, backend)):
            with sdpa_kernel([which]):
                return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(c))
        out.append((f"sdpa {backend.lower()} only", sdpa))
    return out
