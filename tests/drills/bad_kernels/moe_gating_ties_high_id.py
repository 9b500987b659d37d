"""moe_gating (the reference solution) with one change: among equal logits it picks the
highest expert id, not the lowest. Right whenever a row has no ties among its top k."""

import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"
MAX_SLOTS = 512 if INTERPRET else 128      # slots per block: the [S, S] rank comparison


@triton.jit
def route_kernel(x_ptr, out_ptr, bcount_ptr, T, E, K, n_blocks, stride_t, stride_e,
                 RENORM: tl.constexpr, BLOCK_T: tl.constexpr, E_PAD: tl.constexpr,
                 K_PAD: tl.constexpr):
    blk = tl.program_id(0)
    toks = blk * BLOCK_T + tl.arange(0, BLOCK_T)
    cols = tl.arange(0, E_PAD)
    tok_ok = toks < T
    col_ok = cols < E
    x = tl.load(x_ptr + toks.to(tl.int64)[:, None] * stride_t + cols[None, :] * stride_e,
                mask=tok_ok[:, None] & col_ok[None, :], other=-float("inf")).to(tl.float32)
    x = tl.where(col_ok[None, :], x, -float("inf"))
    row_max = tl.max(x, axis=1)
    p = tl.exp(x - row_max[:, None])
    p = tl.where(col_ok[None, :], p, 0.0)
    denom = tl.sum(p, axis=1)
    kcols = tl.arange(0, K_PAD)
    w_acc = tl.zeros([BLOCK_T, K_PAD], tl.float32)
    id_acc = tl.zeros([BLOCK_T, K_PAD], tl.int32)
    counts = tl.zeros([E_PAD], tl.int32)
    # Padding is never picked. Built at the loop's full [BLOCK_T, E_PAD] shape: a loop-carried
    # value must keep its shape (Triton on the GPU refuses a [1, E_PAD] that grows).
    taken = (tl.zeros([BLOCK_T, E_PAD], tl.int32) + cols[None, :]) >= E
    for j in range(0, K):
        cand = tl.where(taken, -float("inf"), x)
        best = tl.max(cand, axis=1)
        hit = (cand == best[:, None]) & ~taken
        idx = tl.max(tl.where(hit, cols[None, :], -1), axis=1)        # ties: HIGHEST id (wrong)
        chosen = cols[None, :] == idx[:, None]
        taken = taken | chosen
        w = tl.sum(tl.where(chosen, p, 0.0), axis=1) / denom
        w_acc = tl.where(kcols[None, :] == j, w[:, None], w_acc)
        id_acc = tl.where(kcols[None, :] == j, idx[:, None], id_acc)
        counts += tl.sum((chosen & tok_ok[:, None]).to(tl.int32), axis=0)
    if RENORM:
        w_acc = w_acc / tl.sum(w_acc, axis=1)[:, None]
    slot = toks.to(tl.int64)[:, None] * K + kcols[None, :]
    ok = tok_ok[:, None] & (kcols[None, :] < K)
    n = (T + tl.zeros([], tl.int64)) * K
    tl.store(out_ptr + slot, w_acc, mask=ok)
    tl.store(out_ptr + n + slot, id_acc.to(tl.float32), mask=ok)
    tl.store(bcount_ptr + cols.to(tl.int64) * n_blocks + blk, counts, mask=col_ok)


@triton.jit
def scan_kernel(bcount_ptr, bprefix_ptr, out_ptr, T, E, K, n_blocks,
                EXPERTS: tl.constexpr, CHUNK: tl.constexpr):
    experts = tl.program_id(0) * EXPERTS + tl.arange(0, EXPERTS)
    e_ok = experts < E
    row = experts.to(tl.int64)[:, None] * n_blocks
    running = tl.zeros([EXPERTS], tl.int32)
    for b0 in range(0, n_blocks, CHUNK):
        blocks = b0 + tl.arange(0, CHUNK)
        mask = e_ok[:, None] & (blocks < n_blocks)[None, :]
        c = tl.load(bcount_ptr + row + blocks[None, :], mask=mask, other=0)
        before = tl.cumsum(c, axis=1) - c + running[:, None]
        tl.store(bprefix_ptr + row + blocks[None, :], before, mask=mask)
        running += tl.sum(c, axis=1)
    tl.store(out_ptr + 2 * (T + tl.zeros([], tl.int64)) * K + experts, running.to(tl.float32), mask=e_ok)


@triton.jit
def place_kernel(out_ptr, bprefix_ptr, T, E, K, n_blocks,
                 BLOCK_T: tl.constexpr, E_PAD: tl.constexpr, S_PAD: tl.constexpr):
    blk = tl.program_id(0)
    n = (T + tl.zeros([], tl.int64)) * K
    cols = tl.arange(0, E_PAD)
    col_ok = cols < E
    counts = tl.load(out_ptr + 2 * n + cols, mask=col_ok, other=0.0).to(tl.int32)
    offsets = tl.cumsum(counts, axis=0) - counts             # exclusive
    if blk == 0:
        tl.store(out_ptr + 2 * n + E + cols, offsets.to(tl.float32), mask=col_ok)
        tl.store(out_ptr + 2 * n + 2 * E, n.to(tl.float32))
    first = blk.to(tl.int64) * BLOCK_T * K
    s = tl.arange(0, S_PAD)
    slot = first + s
    ok = (s < BLOCK_T * K) & (slot < n)
    e = tl.load(out_ptr + n + slot, mask=ok, other=-1.0).to(tl.int32)
    # rank among this block's earlier slots of the same expert
    same = (e[:, None] == e[None, :]) & (s[None, :] < s[:, None]) & ok[None, :]
    rank = tl.sum(same.to(tl.int32), axis=1)
    base = tl.gather(offsets, tl.where(ok, e, 0), axis=0)    # offsets[e]
    prior = tl.load(bprefix_ptr + e.to(tl.int64) * n_blocks + blk, mask=ok, other=0)
    place = base + prior + rank
    tl.store(out_ptr + 2 * n + 2 * E + 1 + place, slot.to(tl.float32), mask=ok)


def moe_gating(logits: torch.Tensor, k: int, renormalize: bool) -> torch.Tensor:
    """[weights | ids | counts | offsets | perm] as one float32 vector (see the statement)."""
    assert logits.ndim == 2
    T, E = logits.shape
    assert 1 <= k <= E and E <= 1024 and T * k < (1 << 24), "k in [1, E], E <= 1024, T*k < 2^24"
    n = T * k
    out = torch.empty(3 * n + 2 * E + 1, dtype=torch.float32, device=logits.device)
    k_pad = triton.next_power_of_2(k)
    e_pad = triton.next_power_of_2(E)
    block_t = max(1, min(64, MAX_SLOTS // k_pad, max(1, 8192 // e_pad)))
    block_t = 1 << (block_t.bit_length() - 1)                # a power of two
    n_blocks = triton.cdiv(T, block_t)
    bcount = torch.empty((E, n_blocks), dtype=torch.int32, device=logits.device)
    bprefix = torch.empty((E, n_blocks), dtype=torch.int32, device=logits.device)
    warps = 4 if block_t * e_pad <= 2048 else 8
    route_kernel[(n_blocks,)](logits, out, bcount, T, E, k, n_blocks, logits.stride(0), logits.stride(1),
                              RENORM=bool(renormalize), BLOCK_T=block_t, E_PAD=e_pad, K_PAD=k_pad,
                              num_warps=warps)
    experts = 4
    scan_kernel[(triton.cdiv(E, experts),)](bcount, bprefix, out, T, E, k, n_blocks,
                                            EXPERTS=experts, CHUNK=256, num_warps=4)
    place_kernel[(n_blocks,)](out, bprefix, T, E, k, n_blocks, BLOCK_T=block_t, E_PAD=e_pad,
                              S_PAD=triton.next_power_of_2(block_t * k), num_warps=warps)
    return out

