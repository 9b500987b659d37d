"""Flash-decoding drill: inputs, float64 reference, torch baseline, bytes and flops.

Runs in the drill child only (imports torch). A case's shape is

    [B, Hq, Hkv, D, Lmax]

B sequences, each decoding one token: q is [B, Hq, D]. The KV cache is contiguous per
sequence, in flash_attn_with_kvcache's layout: k_cache, v_cache [B, Lmax, Hkv, D], token t
of sequence b at k_cache[b, t]. Sequence b has cache_seqlens[b] tokens (the case's `lens`
list; every sequence has Lmax tokens when it gives none). Query head h reads KV head
h // (Hq // Hkv) (GQA; flash-attn's and SDPA's enable_gqa mapping).

The slots t >= cache_seqlens[b] of every sequence (the cache's spare capacity) hold NaN,
so a kernel that loads them unmasked, or multiplies a zero probability by a NaN V row,
returns NaN.

Extra case keys: `lens` (context lengths, each in [1, Lmax]); `q_scale` (q is
q_scale * randn: large scores, a softmax without its max subtraction overflows).

Layouts (all keep the head dim contiguous):
- contiguous: k_cache, v_cache are contiguous [B, Lmax, Hkv, D];
- `head_major`: k_cache, v_cache are transpose(1, 2) views of contiguous [B, Hkv, Lmax, D]
  buffers (the Hugging Face cache layout seen in flash-attn's order): token stride D,
  head stride Lmax * D;
- `kv_combined`: k_cache and v_cache are the two halves of one [B, Lmax, 2, Hkv, D] buffer
  (token stride 2 * Hkv * D);
- `packed_q`: q is a view into a fused [B, (Hq + 2*Hkv) * D] QKV projection output (row
  stride (Hq + 2*Hkv) * D).
"""

import math

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import dtype_of

LAYOUTS = ("contiguous", "head_major", "kv_combined", "packed_q")


def dims(case):
    """(B, Hq, Hkv, D, Lmax) of a case."""
    shape = list(case["shape"])
    if len(shape) != 5:
        raise ValueError(f"shape {shape}: expected [B, Hq, Hkv, D, Lmax]")
    B, Hq, Hkv, D, L = shape
    if Hq % Hkv:
        raise ValueError(f"shape {shape}: Hq = {Hq} is not a multiple of Hkv = {Hkv}")
    return B, Hq, Hkv, D, L


def case_lens(case):
    """Context length of every sequence: the case's `lens`, or Lmax for all."""
    B, _, _, _, L = dims(case)
    lens = [int(n) for n in case.get("lens", [L] * B)]
    if len(lens) != B or not all(1 <= n <= L for n in lens):
        raise ValueError(f"case {case.get('name')}: lens must be {B} lengths in [1, {L}], got {lens}")
    return lens


def make_inputs(case, gen, device):
    B, Hq, Hkv, D, L = dims(case)
    lens = case_lens(case)
    dtype = dtype_of(case["dtype"])
    layout = case.get("layout", "contiguous")
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r} (use one of {LAYOUTS})")

    # Built on the CPU, one sequence at a time (a 128K-token case would need its whole
    # cache in float32 otherwise), NaN in every slot past a sequence's length.
    caches = []
    for _ in range(2):                                     # K, then V
        cache = torch.full((B, L, Hkv, D), float("nan"), dtype=dtype)
        for b, n in enumerate(lens):
            cache[b, :n] = torch.randn(n, Hkv, D, generator=gen).to(dtype)
        caches.append(cache)
    k_cache, v_cache = caches
    q = (float(case.get("q_scale", 1.0)) * torch.randn(B, Hq, D, generator=gen)).to(dtype)

    if layout == "packed_q":
        qkv = torch.randn(B, (Hq + 2 * Hkv) * D, generator=gen).to(dtype)
        qkv[:, :Hq * D] = q.reshape(B, Hq * D)
        q = qkv.to(device)[:, :Hq * D].view(B, Hq, D)
    else:
        q = q.to(device)
    if layout == "head_major":
        k_cache = k_cache.transpose(1, 2).contiguous().to(device).transpose(1, 2)
        v_cache = v_cache.transpose(1, 2).contiguous().to(device).transpose(1, 2)
    elif layout == "kv_combined":
        kv = torch.stack([k_cache, v_cache], dim=2).to(device)     # [B, L, 2, Hkv, D]
        k_cache, v_cache = kv[:, :, 0], kv[:, :, 1]
    else:
        k_cache, v_cache = k_cache.to(device), v_cache.to(device)
    cache_seqlens = torch.tensor(lens, dtype=torch.int32).to(device)
    return q, k_cache, v_cache, cache_seqlens


def reference(q, k_cache, v_cache, cache_seqlens):
    """softmax(q K^T / sqrt(D)) V in float64, one sequence at a time over its first
    cache_seqlens[b] tokens, with GQA head grouping."""
    B, Hq, D = q.shape
    Hkv = k_cache.shape[2]
    G = Hq // Hkv
    scale = 1.0 / math.sqrt(D)
    out = torch.empty(B, Hq, D, dtype=torch.float64, device=q.device)
    for b, n in enumerate(cache_seqlens.tolist()):
        k = k_cache[b, :n].double()                              # [n, Hkv, D]
        v = v_cache[b, :n].double()
        qb = q[b].double().view(Hkv, G, D)
        scores = torch.einsum("hgd,nhd->hgn", qb, k) * scale
        out[b] = torch.einsum("hgn,nhd->hgd", torch.softmax(scores, dim=-1), v).reshape(Hq, D)
    return out


def baseline(q, k_cache, v_cache, cache_seqlens):
    """Stock PyTorch for a ragged batch over a preallocated cache: one
    F.scaled_dot_product_attention call per sequence on the views k_cache[b, :len_b] (no
    copy, no mask, so the fused flash / memory-efficient kernels are eligible), the G query
    heads of a KV head as G query rows (GQA without repeating K/V). It reads exactly the
    tokens the model counts; it pays one host sync (the lengths) and B launches.
    A single padded call with a length mask would read the stale slots (NaN here, and
    0 * NaN is NaN under a -inf mask) and lose the flash kernel to the mask."""
    B, Hq, D = q.shape
    Hkv = k_cache.shape[2]
    G = Hq // Hkv
    outs = []
    for b, n in enumerate(cache_seqlens.tolist()):
        k = k_cache[b, :n].transpose(0, 1)[None]                 # [1, Hkv, n, D] view
        v = v_cache[b, :n].transpose(0, 1)[None]
        outs.append(F.scaled_dot_product_attention(q[b].reshape(1, Hkv, G, D), k, v))
    return torch.cat(outs).reshape(B, Hq, D)


def output_dtype(q, k_cache, v_cache, cache_seqlens):
    return q.dtype


def bytes_moved(case):
    """The K and V rows of every sequence's first lens[b] tokens (read once, shared by the
    Hq // Hkv query heads of a KV head), q read and out written once, and the lengths:
    2*sum(lens)*Hkv*D*itemsize + 2*B*Hq*D*itemsize + 4*B."""
    B, Hq, Hkv, D, L = dims(case)
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (2 * sum(case_lens(case)) * Hkv * D + 2 * B * Hq * D) * itemsize + 4 * B


def flops(case):
    """q.k and p.v: 2*D flops each per (query head, context token): 4*Hq*D*sum(lens)."""
    B, Hq, Hkv, D, L = dims(case)
    return 4 * Hq * D * sum(case_lens(case))
