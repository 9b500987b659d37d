"""Reference solution: paged-attention decode (vLLM style, GQA), Triton, split-KV.

out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b for one query token per sequence, where
K_b / V_b are the first lens[b] tokens of sequence b, scattered over a paged KV cache
[num_blocks, block_size, Hkv, D]: token t lives in block block_table[b, t // block_size],
slot t % block_size. Query head h reads KV head h // G, G = Hq // Hkv.

Bytes/flops model: every context token's K and V row is read once (2*sum(lens)*Hkv*D
elements) for 4*Hq*D*sum(lens) flops: 2*G flops per K/V element, i.e. G flop/byte in
fp16/bf16 (4 for Llama-3-8B), far below an H100's ~300 flop/byte ridge. Decode
attention is memory-bound: the metric is GB/s and the goal is to stream the cache at copy
bandwidth.

What makes it fast:
- **GQA sharing.** One program owns a (sequence, KV head) pair and all G query heads that
  read it: each K/V tile is loaded once and used G times (a [G_PAD, D] x [D, BLOCK_N]
  tl.dot, G padded to the 16 rows tl.dot needs). A program per query head would read the
  cache G times.
- **Split-KV (flash-decoding / vLLM's v2 partitions).** B * Hkv programs are far too few
  for a long context at small batch (8 for Llama-3-8B at B = 1, on 132 SMs): the context
  is cut into partitions of PARTITION tokens, one program each, so the grid holds about
  4 programs per SM. Each writes its unnormalised partial (running max m, sum l, acc);
  a second small kernel merges a head's partials with their log-sum-exp weights. The
  partials are B*Hq*splits*(D + 2) floats, a rounding error next to the cache. With
  enough (sequence, KV head) pairs the split is skipped and the first kernel writes the
  output itself. The split count comes from the table's width (an upper bound on every
  length), so the host never reads context_lens (no device sync); partitions that start
  past a sequence's end load nothing and are ignored by the merge. (Here the table is as
  wide as the longest context; with vLLM's tables, sized for the model's maximum length,
  plan from the batch's max_seq_len, which vLLM passes in, instead.)
- **16-byte loads.** A token's K row is D contiguous elements (256 B for D = 128 bf16);
  the page and slot only move the row's base address, so every row is loaded with full
  vector loads. The table is read per token (the same few int32 per tile, cached).
- **Masks, not copies.** Only tokens < lens[b] are loaded: the table entries past a
  sequence's last block (garbage), the stale slots of its last block and the free blocks
  are never read. Stale slots can hold anything, NaN included, so V is masked too: a
  -inf score gives p = 0, but 0 * NaN is NaN.
- exp2 with log2(e)/sqrt(D) folded into one scale; float32 m, l and accumulators; p is
  cast to V's dtype for the second tl.dot.
- **float32 as TF32.** With float32 K and V the two tl.dots run as TF32 on the tensor cores
  (FP32_DOT; the drill's float32 tolerance allows a 10-bit mantissa). As IEEE float32
  FMAs, G_PAD = 16 rows of them per loaded element, they ran at 26-30% of copy bandwidth
  on an H200, about a third of TF32's speed (call 92).

Autotuned on the GPU over BLOCK_N (tokens per tile) x warps x pipeline stages; one small
configuration and a 32-token partition in Triton's interpreter, so the small cases run
both the split and the direct path. float32 inputs take TF32 dot products (FP32_DOT).
Checked on an H200 (bench/results/h200_catalogue.md; peers in bench/results/peers_h200).
"""

import math
import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"
PARTITION_QUANTUM = 32 if INTERPRET else 128   # partitions are whole tiles of every BLOCK_N
MIN_PARTITION = 64 if INTERPRET else 256       # tokens: below this a split is not worth a merge
PROGRAMS_PER_SM = 4
MAX_SPLITS = 256
# float32 dot products: "tf32" (tensor cores, a 10-bit mantissa; the drill's float32 tolerance
# allows it), "tf32x3" (three TF32 products, about float32's accuracy) or "ieee" (float32 FMAs).
# On an H200 "ieee" ran at 26-30% of copy bandwidth, "tf32" about 3x faster (call 92).
# fp16 / bf16 inputs ignore it.
FP32_DOT = "tf32"


def _configs():
    if INTERPRET:
        return [triton.Config({"BLOCK_N": 32}, num_warps=4, num_stages=1)]
    return [triton.Config({"BLOCK_N": n}, num_warps=w, num_stages=s)
            for n, w, s in [(32, 4, 3), (64, 4, 2), (64, 4, 3), (64, 4, 4), (64, 8, 3),
                            (128, 4, 2), (128, 8, 2), (128, 8, 3)]]


@triton.autotune(configs=_configs(), key=["PARTITION", "HEAD_DIM", "G_PAD", "PAGE", "SPLIT", "DOT_PRECISION"])
@triton.jit
def paged_decode_kernel(q_ptr, k_ptr, v_ptr, table_ptr, lens_ptr, out_ptr, m_ptr, l_ptr, acc_ptr,
                        qk_scale, Hkv, PARTITION, NUM_SPLITS,
                        stride_qb, stride_qh, stride_qd,
                        stride_kb, stride_ks, stride_kh, stride_kd,
                        stride_vb, stride_vs, stride_vh, stride_vd,
                        stride_tb, stride_ob, stride_oh,
                        G: tl.constexpr, G_PAD: tl.constexpr, HEAD_DIM: tl.constexpr,
                        PAGE: tl.constexpr, SPLIT: tl.constexpr, UPCAST: tl.constexpr,
                        DOT_PRECISION: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)                    # b * Hkv + kv head
    split = tl.program_id(1)
    b = pid // Hkv
    kvh = pid % Hkv
    n = tl.load(lens_ptr + b)
    start = split * PARTITION
    end = tl.minimum(start + PARTITION, n)    # start >= end: a partition past the end, no work

    offs_g = tl.arange(0, G_PAD)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    heads = kvh * G + offs_g                  # the G query heads that share this KV head
    head_ok = offs_g < G
    q = tl.load(q_ptr + b.to(tl.int64) * stride_qb + heads[:, None] * stride_qh
                + offs_d[None, :] * stride_qd, mask=head_ok[:, None], other=0.0)
    if UPCAST:
        q = q.to(tl.float32)

    m_i = tl.full([G_PAD], -float("inf"), tl.float32)
    l_i = tl.zeros([G_PAD], tl.float32)
    acc = tl.zeros([G_PAD, HEAD_DIM], tl.float32)
    table_row = table_ptr + b.to(tl.int64) * stride_tb
    k_head = k_ptr + kvh.to(tl.int64) * stride_kh + offs_d[None, :] * stride_kd
    v_head = v_ptr + kvh.to(tl.int64) * stride_vh + offs_d[None, :] * stride_vd
    for tok0 in range(start, end, BLOCK_N):
        toks = tok0 + offs_n
        valid = toks < end
        page = tl.load(table_row + toks // PAGE, mask=valid, other=0).to(tl.int64)
        slot = (toks % PAGE).to(tl.int64)
        k = tl.load(k_head + (page * stride_kb + slot * stride_ks)[:, None],
                    mask=valid[:, None], other=0.0)
        if UPCAST:
            k = k.to(tl.float32)
        s = tl.dot(q, tl.trans(k), input_precision=DOT_PRECISION)
        s = tl.where(valid[None, :], s * qk_scale, -float("inf"))   # log2 units
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        # Stale slots may hold NaN: p = 0 there, but 0 * NaN = NaN, so V is masked as well.
        v = tl.load(v_head + (page * stride_vb + slot * stride_vs)[:, None],
                    mask=valid[:, None], other=0.0)
        if UPCAST:
            v = v.to(tl.float32)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None], input_precision=DOT_PRECISION)
        m_i = m_new

    live = head_ok & (offs_g * 0 + start < n)      # [G_PAD]: a real head, a partition with tokens
    if SPLIT:
        row = (b * (Hkv * G) + heads).to(tl.int64) * NUM_SPLITS + split   # [B*Hq, NUM_SPLITS]
        tl.store(m_ptr + row, m_i, mask=live)
        tl.store(l_ptr + row, l_i, mask=live)
        tl.store(acc_ptr + row[:, None] * HEAD_DIM + offs_d[None, :], acc, mask=live[:, None])
    else:
        out = acc / l_i[:, None]
        tl.store(out_ptr + b.to(tl.int64) * stride_ob + heads[:, None] * stride_oh + offs_d[None, :],
                 out.to(out_ptr.dtype.element_ty), mask=live[:, None])


@triton.jit
def merge_splits_kernel(m_ptr, l_ptr, acc_ptr, lens_ptr, out_ptr, Hq, PARTITION, NUM_SPLITS,
                        stride_ob, stride_oh, HEAD_DIM: tl.constexpr, SPLITS_PAD: tl.constexpr,
                        CHUNK: tl.constexpr):
    pid = tl.program_id(0)                    # b * Hq + query head
    b = pid // Hq
    h = pid % Hq
    n = tl.load(lens_ptr + b)
    n_splits = (n + PARTITION - 1) // PARTITION   # partitions that held tokens
    base = pid.to(tl.int64) * NUM_SPLITS
    offs_s = tl.arange(0, SPLITS_PAD)
    m = tl.load(m_ptr + base + offs_s, mask=offs_s < n_splits, other=-float("inf"))
    l = tl.load(l_ptr + base + offs_s, mask=offs_s < n_splits, other=0.0)
    m_max = tl.max(m, 0)
    denom = tl.sum(tl.exp2(m - m_max) * l, 0)
    offs_c = tl.arange(0, CHUNK)
    offs_d = tl.arange(0, HEAD_DIM)
    acc = tl.zeros([HEAD_DIM], tl.float32)
    for c in range(0, n_splits, CHUNK):
        s = c + offs_c
        ok = s < n_splits
        w = tl.exp2(tl.load(m_ptr + base + s, mask=ok, other=-float("inf")) - m_max)
        part = tl.load(acc_ptr + (base + s)[:, None] * HEAD_DIM + offs_d[None, :],
                       mask=ok[:, None], other=0.0)
        acc += tl.sum(part * w[:, None], 0)
    tl.store(out_ptr + b.to(tl.int64) * stride_ob + h * stride_oh + offs_d,
             (acc / denom).to(out_ptr.dtype.element_ty))


_SM_COUNT = {}


def _sm_count(device: torch.device) -> int:
    if INTERPRET or device.type != "cuda":
        return 1
    index = device.index if device.index is not None else torch.cuda.current_device()
    if index not in _SM_COUNT:
        _SM_COUNT[index] = torch.cuda.get_device_properties(index).multi_processor_count
    return _SM_COUNT[index]


def plan_splits(pairs: int, max_ctx: int, sms: int) -> tuple[int, int]:
    """(PARTITION tokens, number of splits) for `pairs` (sequence, KV head) programs and
    contexts of at most max_ctx tokens: about PROGRAMS_PER_SM programs per SM."""
    target = PROGRAMS_PER_SM * sms
    splits = 1 if pairs >= target else min(triton.cdiv(target, pairs),
                                           triton.cdiv(max_ctx, MIN_PARTITION), MAX_SPLITS)
    splits = max(splits, 1)
    partition = triton.cdiv(triton.cdiv(max_ctx, splits), PARTITION_QUANTUM) * PARTITION_QUANTUM
    return partition, triton.cdiv(max_ctx, partition)


def paged_attention_decode(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                           block_table: torch.Tensor, context_lens: torch.Tensor) -> torch.Tensor:
    """out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b over the first context_lens[b]
    tokens of sequence b's pages; returns a new [B, Hq, D] tensor of q's dtype."""
    B, Hq, D = q.shape
    num_blocks, page, Hkv, Dk = k_cache.shape
    assert Dk == D and v_cache.shape == k_cache.shape and Hq % Hkv == 0
    assert q.dtype == k_cache.dtype == v_cache.dtype
    assert block_table.dtype == torch.int32 and context_lens.dtype == torch.int32
    assert D in (16, 32, 64, 128, 256), "head_dim must be a power of two in [16, 256]"
    G = Hq // Hkv
    g_pad = max(16, triton.next_power_of_2(G))            # tl.dot needs 16 rows
    out = torch.empty((B, Hq, D), dtype=q.dtype, device=q.device)
    max_ctx = block_table.shape[1] * page                 # >= every context length
    partition, splits = plan_splits(B * Hkv, max_ctx, _sm_count(q.device))
    qk_scale = 1.0 / math.sqrt(D) * 1.4426950408889634    # fold log2(e) for exp2
    if splits > 1:
        m = torch.empty((B * Hq, splits), dtype=torch.float32, device=q.device)
        l = torch.empty((B * Hq, splits), dtype=torch.float32, device=q.device)
        acc = torch.empty((B * Hq, splits, D), dtype=torch.float32, device=q.device)
    else:
        m = l = acc = out                                 # unused by the direct path
    paged_decode_kernel[(B * Hkv, splits)](
        q, k_cache, v_cache, block_table, context_lens, out, m, l, acc,
        qk_scale, Hkv, partition, splits,
        *q.stride(), *k_cache.stride(), *v_cache.stride(),
        block_table.stride(0), out.stride(0), out.stride(1),
        G=G, G_PAD=g_pad, HEAD_DIM=D, PAGE=page, SPLIT=splits > 1,
        UPCAST=INTERPRET and q.dtype == torch.bfloat16,
        DOT_PRECISION=FP32_DOT if q.dtype == torch.float32 else "tf32")
    if splits > 1:
        merge_splits_kernel[(B * Hq,)](
            m, l, acc, context_lens, out, Hq, partition, splits, out.stride(0), out.stride(1),
            HEAD_DIM=D, SPLITS_PAD=triton.next_power_of_2(splits), CHUNK=16, num_warps=4)
    return out


if __name__ == "__main__":
    import importlib.util
    import pathlib

    spec_path = pathlib.Path(__file__).with_name("spec.py")
    loader = importlib.util.spec_from_file_location("paged_spec", spec_path)
    spec = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(spec)
    for shape in ([1, 32, 8, 128, 32768], [16, 32, 8, 128, 8192], [64, 32, 8, 128, 2048]):
        case = {"shape": shape, "dtype": "bfloat16"}
        inputs = spec.make_inputs(case, torch.Generator().manual_seed(0), "cuda")
        torch.testing.assert_close(paged_attention_decode(*inputs).double(), spec.reference(*inputs),
                                   atol=2.5e-2, rtol=2.5e-2)
        ms = triton.testing.do_bench(lambda: paged_attention_decode(*inputs))
        base = triton.testing.do_bench(lambda: spec.baseline(*inputs))
        print(f"{shape}: {spec.bytes_moved(case) / ms * 1e-6:.0f} GB/s, torch {base / ms:.2f}x slower")
