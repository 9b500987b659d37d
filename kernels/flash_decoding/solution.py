"""Reference solution: flash-decoding (split-KV decode attention over a contiguous KV cache), Triton.

out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b for one query token per sequence, where
K_b / V_b are the first cache_seqlens[b] tokens of k_cache[b] / v_cache[b], the cache laid
out as in flash_attn_with_kvcache: [B, Lmax, Hkv, D]. Query head h reads KV head h // G,
G = Hq // Hkv.

Bytes model (what any solution must move): every needed K and V row once,
2 * sum(cache_seqlens) * Hkv * D * itemsize, plus q read and out written once,
2 * B * Hq * D * itemsize, plus the int32 lengths, 4 * B. Nothing past a sequence's length
is counted: those slots are spare capacity and must not be read. The flops are
4 * Hq * D * sum(cache_seqlens): 2 * G flops per K/V element loaded, G flop/byte in
fp16/bf16 (4 for Llama-3-8B), far below an H100's ~300 flop/byte ridge. Decode attention
is memory-bound: the goal is to stream the cache at copy bandwidth.

What makes it fast:
- **Split-KV (flash-decoding).** One program per (sequence, KV head) is B * Hkv programs:
  8 for Llama-3-8B at batch 1, on 132 SMs, so most of the chip would sit idle however
  long the context. The context is cut into splits of SPLIT_LEN tokens, one program per
  (sequence, KV head, split), so the grid holds about PROGRAMS_PER_SM programs per SM.
  Each program writes its split's normalised partial output o_i and log-sum-exp lse_i
  (float32); `combine_kernel` merges a head's splits: w_i = exp(lse_i - max_j lse_j),
  out = sum_i w_i o_i / sum_i w_i. The partials are B*Hq*splits*(D + 1) floats written and
  read once, a rounding error next to the cache. With enough (sequence, KV head) pairs to
  fill the SMs the split is skipped and the first kernel writes the output itself.
- **No host sync.** The split count comes from the cache's capacity Lmax (an upper bound
  on every length, known on the host), as flash_attn_with_kvcache plans from the cache's
  seqlen; splits that start past a sequence's length load nothing, write nothing, and the
  combine ignores them (it counts a sequence's splits from its length).
- **GQA sharing.** A program owns all G query heads of its KV head: each K/V tile is
  loaded once and used G times in a [G_PAD, D] x [D, BLOCK_N] tl.dot (G padded to the 16
  rows tl.dot needs). A program per query head would read the cache G times.
- **Masks, not copies.** Only tokens < cache_seqlens[b] are loaded, K and V both: the
  spare slots may hold anything (NaN in the drill), and a -inf score gives p = 0 but
  0 * NaN is NaN.
- The head dim is contiguous, so a token's K row is D contiguous elements (256 B for
  D = 128 bf16) and loads are 16-byte vectors; strides are honoured for every other dim.
  exp2 with log2(e)/sqrt(D) folded into one scale; float32 m, l, acc; p is cast to V's
  dtype for the second tl.dot.
- **float32 as TF32.** With float32 K and V the two tl.dots run as TF32 on the tensor cores
  (FP32_DOT; the drill's float32 tolerance allows a 10-bit mantissa). As IEEE float32
  FMAs they were the bottleneck: G_PAD = 16 rows of FMAs per loaded element ran at 26-30%
  of copy bandwidth on an H200, about a third of TF32's speed. float32 plans half as many
  splits (FP32_PROGRAMS_PER_SM): timed faster at 32K tokens, level at 4K x 8 (call 92).

Autotuned on the GPU over BLOCK_N x warps x pipeline stages. Under Triton's interpreter
one small configuration, 32-token split quanta, 2 pretend SMs and 4-split combine chunks,
so the drill's small cases run the split path, the direct path and the combine loop.
Checked under the interpreter and compiled for sm_90 with Triton 3.6
(tools/triton_compile_check.py). On an H200 (engine protocol): every case passed, 94-97% of
copy bandwidth where 128 MB or more moves, 60% at 32K x 1, 25% at 4K x 1 (15.6 us)
(bench/results/h200_catalogue.md).
"""

import math
import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"
SPLIT_QUANTUM = 32 if INTERPRET else 128   # split lengths are whole tiles of every BLOCK_N
MIN_SPLIT = 64 if INTERPRET else 256       # tokens: shorter splits cost more than they spread
PROGRAMS_PER_SM = 4
FP32_PROGRAMS_PER_SM = 2                   # float32 (TF32 dots): half the splits (call 92, H200)
MAX_SPLITS = 128
INTERPRET_SMS = 2                          # pretend SM count under the interpreter
COMBINE_CHUNK = 4 if INTERPRET else 16     # splits merged per step of the combine loop
LOG2E = 1.4426950408889634
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


@triton.autotune(configs=_configs(), key=["SPLIT_LEN", "HEAD_DIM", "G_PAD", "SPLIT", "DOT_PRECISION"])
@triton.jit
def split_kv_kernel(q_ptr, k_ptr, v_ptr, lens_ptr, out_ptr, lse_ptr, part_ptr,
                    qk_scale, Hkv, SPLIT_LEN, NUM_SPLITS,
                    stride_qb, stride_qh, stride_qd,
                    stride_kb, stride_kt, stride_kh, stride_kd,
                    stride_vb, stride_vt, stride_vh, stride_vd,
                    stride_ob, stride_oh,
                    G: tl.constexpr, G_PAD: tl.constexpr, HEAD_DIM: tl.constexpr,
                    SPLIT: tl.constexpr, UPCAST: tl.constexpr, DOT_PRECISION: tl.constexpr,
                    BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)                    # b * Hkv + KV head
    split = tl.program_id(1)
    b = pid // Hkv
    kvh = pid % Hkv
    n = tl.load(lens_ptr + b)
    start = split * SPLIT_LEN
    end = tl.minimum(start + SPLIT_LEN, n)    # start >= end: a split past the end, no work

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
    # 64-bit base pointers at the split's first token; the in-loop offsets stay small.
    k_ptrs = (k_ptr + b.to(tl.int64) * stride_kb + kvh.to(tl.int64) * stride_kh
              + start.to(tl.int64) * stride_kt
              + offs_n[:, None] * stride_kt + offs_d[None, :] * stride_kd)
    v_ptrs = (v_ptr + b.to(tl.int64) * stride_vb + kvh.to(tl.int64) * stride_vh
              + start.to(tl.int64) * stride_vt
              + offs_n[:, None] * stride_vt + offs_d[None, :] * stride_vd)
    for tok0 in range(start, end, BLOCK_N):
        valid = tok0 + offs_n < end
        k = tl.load(k_ptrs, mask=valid[:, None], other=0.0)
        if UPCAST:
            k = k.to(tl.float32)
        s = tl.dot(q, tl.trans(k), input_precision=DOT_PRECISION)
        s = tl.where(valid[None, :], s * qk_scale, -float("inf"))   # log2 units
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)          # 0 on the first tile (m_i = -inf)
        l_i = l_i * alpha + tl.sum(p, 1)
        # The spare slots may hold NaN: p = 0 there, but 0 * NaN = NaN, so V is masked too.
        v = tl.load(v_ptrs, mask=valid[:, None], other=0.0)
        if UPCAST:
            v = v.to(tl.float32)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None], input_precision=DOT_PRECISION)
        m_i = m_new
        k_ptrs += BLOCK_N * stride_kt
        v_ptrs += BLOCK_N * stride_vt

    live = head_ok & (offs_g * 0 + start < n)     # [G_PAD]: a real head, a split with tokens
    l_i = tl.where(live, l_i, 1.0)                # an empty split's rows: not stored, no 0/0
    o = acc / l_i[:, None]
    if SPLIT:
        row = (b * (Hkv * G) + heads).to(tl.int64) * NUM_SPLITS + split   # [B*Hq, NUM_SPLITS]
        tl.store(lse_ptr + row, m_i + tl.log2(l_i), mask=live)            # log2 units
        tl.store(part_ptr + row[:, None] * HEAD_DIM + offs_d[None, :], o, mask=live[:, None])
    else:
        tl.store(out_ptr + b.to(tl.int64) * stride_ob + heads[:, None] * stride_oh + offs_d[None, :],
                 o.to(out_ptr.dtype.element_ty), mask=live[:, None])


@triton.jit
def combine_kernel(lse_ptr, part_ptr, lens_ptr, out_ptr, Hq, SPLIT_LEN, NUM_SPLITS,
                   stride_ob, stride_oh, HEAD_DIM: tl.constexpr, SPLITS_PAD: tl.constexpr,
                   CHUNK: tl.constexpr):
    pid = tl.program_id(0)                    # b * Hq + query head
    b = pid // Hq
    h = pid % Hq
    n = tl.load(lens_ptr + b)
    n_splits = (n + SPLIT_LEN - 1) // SPLIT_LEN   # the splits that held tokens (>= 1)
    base = pid.to(tl.int64) * NUM_SPLITS
    offs_s = tl.arange(0, SPLITS_PAD)
    lse = tl.load(lse_ptr + base + offs_s, mask=offs_s < n_splits, other=-float("inf"))
    lse_max = tl.max(lse, 0)
    denom = tl.sum(tl.exp2(lse - lse_max), 0)     # >= 1: the largest split's weight is 1
    offs_c = tl.arange(0, CHUNK)
    offs_d = tl.arange(0, HEAD_DIM)
    acc = tl.zeros([HEAD_DIM], tl.float32)
    for c in range(0, n_splits, CHUNK):
        s = c + offs_c
        ok = s < n_splits
        w = tl.exp2(tl.load(lse_ptr + base + s, mask=ok, other=-float("inf")) - lse_max)
        part = tl.load(part_ptr + (base + s)[:, None] * HEAD_DIM + offs_d[None, :],
                       mask=ok[:, None], other=0.0)
        acc += tl.sum(part * w[:, None], 0)
    tl.store(out_ptr + b.to(tl.int64) * stride_ob + h * stride_oh + offs_d,
             (acc / denom).to(out_ptr.dtype.element_ty))


_SM_COUNT = {}


def _sm_count(device: torch.device) -> int:
    if INTERPRET or device.type != "cuda":
        return INTERPRET_SMS
    index = device.index if device.index is not None else torch.cuda.current_device()
    if index not in _SM_COUNT:
        _SM_COUNT[index] = torch.cuda.get_device_properties(index).multi_processor_count
    return _SM_COUNT[index]


def plan_splits(pairs: int, max_len: int, sms: int, per_sm: int | None = None) -> tuple[int, int]:
    """(SPLIT_LEN tokens, number of splits) for `pairs` (sequence, KV head) programs and
    contexts of at most max_len tokens: about `per_sm` (default PROGRAMS_PER_SM) programs per
    SM, splits of at least MIN_SPLIT tokens, at most MAX_SPLITS of them."""
    target = (per_sm or PROGRAMS_PER_SM) * sms
    splits = 1 if pairs >= target else min(triton.cdiv(target, pairs),
                                           triton.cdiv(max_len, MIN_SPLIT), MAX_SPLITS)
    splits = max(splits, 1)
    split_len = triton.cdiv(triton.cdiv(max_len, splits), SPLIT_QUANTUM) * SPLIT_QUANTUM
    return split_len, triton.cdiv(max_len, split_len)


def flash_decoding(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                   cache_seqlens: torch.Tensor) -> torch.Tensor:
    """out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b over the first cache_seqlens[b]
    tokens of k_cache[b], v_cache[b]; returns a new [B, Hq, D] tensor of q's dtype."""
    B, Hq, D = q.shape
    Bk, Lmax, Hkv, Dk = k_cache.shape
    assert Bk == B and Dk == D and v_cache.shape == k_cache.shape and Hq % Hkv == 0
    assert q.dtype == k_cache.dtype == v_cache.dtype and cache_seqlens.dtype == torch.int32
    assert D in (16, 32, 64, 128, 256), "head_dim must be a power of two in [16, 256]"
    G = Hq // Hkv
    g_pad = max(16, triton.next_power_of_2(G))            # tl.dot needs 16 rows
    out = torch.empty((B, Hq, D), dtype=q.dtype, device=q.device)
    per_sm = FP32_PROGRAMS_PER_SM if q.dtype == torch.float32 else PROGRAMS_PER_SM
    split_len, splits = plan_splits(B * Hkv, Lmax, _sm_count(q.device), per_sm)
    qk_scale = LOG2E / math.sqrt(D)                        # exp2 units
    if splits > 1:
        lse = torch.empty((B * Hq, splits), dtype=torch.float32, device=q.device)
        part = torch.empty((B * Hq, splits, D), dtype=torch.float32, device=q.device)
    else:
        lse = part = out                                   # unused by the direct path
    split_kv_kernel[(B * Hkv, splits)](
        q, k_cache, v_cache, cache_seqlens, out, lse, part,
        qk_scale, Hkv, split_len, splits,
        *q.stride(), *k_cache.stride(), *v_cache.stride(), out.stride(0), out.stride(1),
        G=G, G_PAD=g_pad, HEAD_DIM=D, SPLIT=splits > 1,
        UPCAST=INTERPRET and q.dtype == torch.bfloat16,
        DOT_PRECISION=FP32_DOT if q.dtype == torch.float32 else "tf32")
    if splits > 1:
        combine_kernel[(B * Hq,)](
            lse, part, cache_seqlens, out, Hq, split_len, splits, out.stride(0), out.stride(1),
            HEAD_DIM=D, SPLITS_PAD=triton.next_power_of_2(splits), CHUNK=COMBINE_CHUNK,
            num_warps=4)
    return out


if __name__ == "__main__":
    import importlib.util
    import pathlib

    spec_path = pathlib.Path(__file__).with_name("spec.py")
    loader = importlib.util.spec_from_file_location("flash_decoding_spec", spec_path)
    spec = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(spec)
    for shape in ([1, 32, 8, 128, 32768], [1, 32, 8, 128, 131072], [8, 32, 8, 128, 4096]):
        case = {"shape": shape, "dtype": "bfloat16"}
        inputs = spec.make_inputs(case, torch.Generator().manual_seed(0), "cuda")
        torch.testing.assert_close(flash_decoding(*inputs).double(), spec.reference(*inputs),
                                   atol=2.5e-2, rtol=2.5e-2)
        ms = triton.testing.do_bench(lambda: flash_decoding(*inputs))
        base = triton.testing.do_bench(lambda: spec.baseline(*inputs))
        print(f"{shape}: {spec.bytes_moved(case) / ms * 1e-6:.0f} GB/s, torch {base / ms:.2f}x slower")
