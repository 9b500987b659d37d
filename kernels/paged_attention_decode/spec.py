"""Paged-attention decode drill: inputs, float64 reference, torch baseline, bytes and flops.

Runs in the drill child only (imports torch). A case's shape is

    [B, Hq, Hkv, D, L]  or  [B, Hq, Hkv, D, L, block_size]   (block_size 16 by default)

B sequences, each decoding one token: q is [B, Hq, D]. Sequence b has a context of
`lens[b]` tokens (the case's `lens` list; every sequence has L tokens when it gives none),
stored in a paged KV cache k_cache / v_cache [num_blocks, block_size, Hkv, D]: token t of
sequence b sits in physical block block_table[b, t // block_size], slot t % block_size.
Query head h reads KV head h // (Hq // Hkv) (GQA; vLLM's and SDPA's enable_gqa mapping).

What the cache holds besides the sequences' tokens, so that a kernel reading anything it
should not gets NaN:
- physical blocks are handed out in a random order (out-of-order, non-contiguous tables)
  and some blocks belong to nobody (holes); those free blocks are filled with NaN;
- slots past the last token of a sequence's last block are stale: NaN;
- table entries past a sequence's last block (the table is max_blocks = cdiv(L, bs) + 1
  wide) hold garbage: ids of free (NaN) blocks.

Extra case keys: `lens` (context lengths, each in [1, L]); `q_scale` (q is q_scale * randn:
large scores, a softmax without its max subtraction overflows).

Layouts: contiguous; `packed_q` (q is a view into a fused [B, (Hq + 2*Hkv) * D] QKV
projection output: row stride (Hq + 2*Hkv) * D); `kv_combined` (k_cache and v_cache are
views into one [num_blocks, 2, block_size, Hkv, D] buffer, FlashInfer's layout: block stride
2 * block_size * Hkv * D); `table_slice` (block_table is the first max_blocks columns of a
wider persistent [B, max_blocks + 7] table: row stride max_blocks + 7).
"""

import math

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import dtype_of

LAYOUTS = ("contiguous", "packed_q", "kv_combined", "table_slice")
DEFAULT_BLOCK_SIZE = 16


def dims(case):
    """(B, Hq, Hkv, D, L, block_size) of a case."""
    shape = list(case["shape"])
    if len(shape) not in (5, 6):
        raise ValueError(f"shape {shape}: expected [B, Hq, Hkv, D, L] or [B, Hq, Hkv, D, L, block_size]")
    B, Hq, Hkv, D, L = shape[:5]
    block_size = shape[5] if len(shape) == 6 else DEFAULT_BLOCK_SIZE
    if Hq % Hkv:
        raise ValueError(f"shape {shape}: Hq = {Hq} is not a multiple of Hkv = {Hkv}")
    return B, Hq, Hkv, D, L, block_size


def case_lens(case):
    """Context length of every sequence: the case's `lens`, or L for all."""
    B, _, _, _, L, _ = dims(case)
    lens = [int(n) for n in case.get("lens", [L] * B)]
    if len(lens) != B or not all(1 <= n <= L for n in lens):
        raise ValueError(f"case {case.get('name')}: lens must be {B} lengths in [1, {L}], got {lens}")
    return lens


def make_inputs(case, gen, device):
    B, Hq, Hkv, D, L, bs = dims(case)
    lens = case_lens(case)
    dtype = dtype_of(case["dtype"])
    layout = case.get("layout", "contiguous")
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r} (use one of {LAYOUTS})")
    nblocks = [-(-n // bs) for n in lens]
    max_blocks = -(-L // bs) + 1
    used = sum(nblocks)
    free = max(2, used // 8)                       # blocks nobody owns: holes, garbage targets
    num_blocks = used + free
    order = torch.randperm(num_blocks, generator=gen)
    owned, free_ids = order[:used], order[used:]

    # The cache, NaN everywhere except the tokens of the sequences.
    k_cache = torch.full((num_blocks, bs, Hkv, D), float("nan"), dtype=dtype)
    v_cache = torch.full((num_blocks, bs, Hkv, D), float("nan"), dtype=dtype)
    table = free_ids[torch.randint(0, free, (B, max_blocks), generator=gen)]
    start = 0
    for b, (n, nb) in enumerate(zip(lens, nblocks)):
        ids = owned[start:start + nb]
        start += nb
        table[b, :nb] = ids
        for cache in (k_cache, v_cache):
            tokens = torch.full((nb * bs, Hkv, D), float("nan"), dtype=dtype)
            tokens[:n] = torch.randn(n, Hkv, D, generator=gen).to(dtype)
            cache[ids] = tokens.view(nb, bs, Hkv, D)
    table = table.to(torch.int32)
    context_lens = torch.tensor(lens, dtype=torch.int32)
    q = (float(case.get("q_scale", 1.0)) * torch.randn(B, Hq, D, generator=gen)).to(dtype)

    if layout == "packed_q":
        qkv = torch.randn(B, (Hq + 2 * Hkv) * D, generator=gen).to(dtype)
        qkv[:, :Hq * D] = q.reshape(B, Hq * D)
        q = qkv.to(device)[:, :Hq * D].view(B, Hq, D)
    else:
        q = q.to(device)
    if layout == "kv_combined":
        kv = torch.stack([k_cache, v_cache], dim=1).to(device)
        k_cache, v_cache = kv[:, 0], kv[:, 1]
    else:
        k_cache, v_cache = k_cache.to(device), v_cache.to(device)
    if layout == "table_slice":
        wide = torch.full((B, max_blocks + 7), -1, dtype=torch.int32)
        wide[:, :max_blocks] = table
        block_table = wide.to(device)[:, :max_blocks]
    else:
        block_table = table.to(device)
    return q, k_cache, v_cache, block_table, context_lens.to(device)


def reference(q, k_cache, v_cache, block_table, context_lens):
    """softmax(q K^T / sqrt(D)) V in float64, one sequence at a time: gather the sequence's
    blocks from the table, keep its first lens[b] tokens, attend with GQA head grouping."""
    B, Hq, D = q.shape
    _, bs, Hkv, _ = k_cache.shape
    G = Hq // Hkv
    scale = 1.0 / math.sqrt(D)
    out = torch.empty(B, Hq, D, dtype=torch.float64, device=q.device)
    lens = context_lens.tolist()
    for b in range(B):
        n = lens[b]
        ids = block_table[b, :-(-n // bs)].long()
        k = k_cache[ids].reshape(-1, Hkv, D)[:n].double()        # [n, Hkv, D]
        v = v_cache[ids].reshape(-1, Hkv, D)[:n].double()
        qb = q[b].double().view(Hkv, G, D)
        scores = torch.einsum("hgd,nhd->hgn", qb, k) * scale
        out[b] = torch.einsum("hgn,nhd->hgd", torch.softmax(scores, dim=-1), v).reshape(Hq, D)
    return out


def baseline(q, k_cache, v_cache, block_table, context_lens):
    """What a framework does without a paged kernel: gather every table entry's page into a
    padded [B, Hkv, max_blocks * block_size, D] K and V (garbage entries pointed at block 0,
    stale slots zeroed: 0 * NaN is NaN even under a -inf mask), then one
    F.scaled_dot_product_attention call with the G query heads of a KV head as G query rows
    (no K/V repeat for GQA) and a length mask."""
    B, Hq, D = q.shape
    _, bs, Hkv, _ = k_cache.shape
    G = Hq // Hkv
    max_blocks = block_table.shape[1]
    used = torch.arange(max_blocks, device=q.device)[None, :] * bs < context_lens[:, None]
    table = torch.where(used, block_table, torch.zeros_like(block_table)).long()
    valid = torch.arange(max_blocks * bs, device=q.device)[None, :] < context_lens[:, None]
    keep = valid[:, :, None, None]
    k = k_cache[table].reshape(B, max_blocks * bs, Hkv, D)
    v = v_cache[table].reshape(B, max_blocks * bs, Hkv, D)
    k = torch.where(keep, k, 0.0).transpose(1, 2)
    v = torch.where(keep, v, 0.0).transpose(1, 2)
    out = F.scaled_dot_product_attention(q.view(B, Hkv, G, D), k, v, attn_mask=valid[:, None, None, :])
    return out.reshape(B, Hq, D)


def output_dtype(q, k_cache, v_cache, block_table, context_lens):
    return q.dtype


def bytes_moved(case):
    """The K and V rows of every context token (read once, shared by the Hq // Hkv query
    heads of a KV head), q read and out written once, the block table entries in use and
    the lengths: 2*sum(lens)*Hkv*D*itemsize + 2*B*Hq*D*itemsize + 4*(sum(blocks) + B)."""
    B, Hq, Hkv, D, L, bs = dims(case)
    lens = case_lens(case)
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    blocks = sum(-(-n // bs) for n in lens)
    return (2 * sum(lens) * Hkv * D + 2 * B * Hq * D) * itemsize + 4 * (blocks + B)


def flops(case):
    """q.k and p.v: 2*D flops each per (query head, context token): 4*Hq*D*sum(lens)."""
    B, Hq, Hkv, D, L, bs = dims(case)
    return 4 * Hq * D * sum(case_lens(case))
