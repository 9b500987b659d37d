"""Reference solution: flash attention forward (causal and non-causal), Triton.

O = softmax(Q K^T / sqrt(D)) V for q, k, v [B, H, S, D], D in {16, 32, 64, 128, 256}.

Read like Triton's 06-fused-attention tutorial (FlashAttention-2's forward). Each program
owns BLOCK_M query rows of one (batch, head) and keeps them in registers; it streams K
and V in BLOCK_N blocks, computing the scores block S_ij = Q_i K_j^T on tensor cores and
an *online softmax*: a running row max m_i and row sum l_i, with the output accumulator
rescaled by exp(m_old - m_new) whenever the max grows. The S x S score matrix never
reaches memory, and the division by l_i happens once at the end.

Bytes/flops model: 4*B*H*S*S*D flops (half for causal) over 4*B*H*S*D*itemsize bytes,
arithmetic intensity ~S/itemsize flop/byte (~2048 for S=4096 fp16): compute-bound, so
the metric is TFLOP/s. (K/V blocks are re-read from L2 by every query block; programs of
one head run together, so that traffic stays on chip.)

Details that matter:
- exp2 with the scale folded into log2(e)/sqrt(D), and (in the mask-free loop) the row
  max taken over the raw scores and scaled once per row: each score then costs one fused
  multiply-add (s * scale - max) before the exp2 instruction, not a multiply and a
  subtract. The softmax's per-element work competes with the tensor cores for issue slots;
  on the H200 at 4 x 32 x 4096 x 64 the best tile went from 1380 us without it to ~1250 us
  with it (bench/results/launch_tuning.md).
- Two stages per program: blocks that need no mask (everything left of the diagonal,
  every full block in the non-causal case) run a mask-free loop; only the diagonal block
  and the ragged sequence tail pay for `tl.where`. Causal programs stop at the diagonal:
  half the flops.
- P is cast to V's dtype before the second tl.dot (fp16/bf16 tensor cores), fp32 acc.
- Every row has a valid key (key 0 under the causal mask), so m_i is finite after the
  first block and exp2(m_old - m_new) never sees -inf - -inf.

Autotuned on the GPU over H100 tiles (BLOCK_M 128 x BLOCK_N 64/128, 4-8 warps, 2-4 stages),
keyed on S, D and causality; one small config in Triton's interpreter. A 128-row tile on 4
warps is not tried at head_dim >= 128: its 128 x 128 float32 accumulator alone is 128
registers a thread, and it spilled (4x slower on the H200).

Where it stands (H200, bf16, bench/results/peers.md): 1.2-1.4x SDPA's FlashAttention-2
backend; behind its default on Hopper, cuDNN's attention: 0.88-0.92x at head_dim 64,
0.68-0.82x at head_dim 128. cuDNN (like
FlashAttention-3) splits each tile's work between warp groups so one group's softmax runs
while another's matrix multiplies do, over TMA loads; this kernel's exp2 and its tl.dot
take turns. Triton 3.6's `warp_specialize` loop option did not change that here.
"""

import math
import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


def _configs():
    if INTERPRET:
        return [triton.Config({"BLOCK_M": 16, "BLOCK_N": 16}, num_warps=4, num_stages=1)]
    return [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_warps=w, num_stages=s)
            for bm, bn, w, s in [(128, 64, 4, 3), (128, 64, 8, 3), (128, 128, 8, 3),
                                 (128, 64, 8, 4), (128, 128, 8, 2), (64, 64, 4, 4),
                                 (64, 32, 4, 4)]]


def _prune(configs, named_args, **kwargs):
    head_dim = kwargs.get("HEAD_DIM", named_args.get("HEAD_DIM"))
    return [c for c in configs
            if not (head_dim >= 128 and c.kwargs["BLOCK_M"] >= 128 and c.num_warps < 8)]


@triton.jit
def _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, offs_m, offs_n, lo, hi, S, qk_scale,
                stride_ks, stride_vs, MASKED: tl.constexpr, CAUSAL: tl.constexpr,
                BLOCK_N: tl.constexpr, UPCAST: tl.constexpr):
    k_ptrs += lo * stride_ks
    v_ptrs += lo * stride_vs
    for start_n in range(lo, hi, BLOCK_N):
        cols = start_n + offs_n
        if MASKED:
            k = tl.load(k_ptrs, mask=cols[None, :] < S, other=0.0)
        else:
            k = tl.load(k_ptrs)
        if UPCAST:
            k = k.to(tl.float32)
        qk = tl.dot(q, k)                            # raw scores; x qk_scale = log2 units
        if MASKED:
            valid = cols[None, :] < S
            if CAUSAL:
                valid = valid & (offs_m[:, None] >= cols[None, :])
            qk = tl.where(valid, qk * qk_scale, -float("inf"))
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.exp2(qk - m_new[:, None])
        else:
            # The max of the raw scores, scaled once per row (qk_scale > 0 keeps the order),
            # so each score costs one fused multiply-add before exp2.
            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            p = tl.exp2(qk * qk_scale - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        if MASKED:
            v = tl.load(v_ptrs, mask=cols[:, None] < S, other=0.0)
        else:
            v = tl.load(v_ptrs)
        if UPCAST:
            v = v.to(tl.float32)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
        k_ptrs += BLOCK_N * stride_ks
        v_ptrs += BLOCK_N * stride_vs
    return acc, l_i, m_i


@triton.autotune(configs=_configs(), key=["S", "HEAD_DIM", "CAUSAL"],
                 prune_configs_by={"early_config_prune": _prune})
@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, qk_scale, H, S,
                    stride_qb, stride_qh, stride_qs, stride_qd,
                    stride_kb, stride_kh, stride_ks, stride_kd,
                    stride_vb, stride_vh, stride_vs, stride_vd,
                    stride_ob, stride_oh, stride_os,
                    HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr, UPCAST: tl.constexpr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)

    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd
    k_ptrs = k_ptr + b * stride_kb + h * stride_kh + offs_n[None, :] * stride_ks + offs_d[:, None] * stride_kd
    v_ptrs = v_ptr + b * stride_vb + h * stride_vh + offs_n[:, None] * stride_vs + offs_d[None, :] * stride_vd
    q = tl.load(q_ptrs, mask=offs_m[:, None] < S, other=0.0)
    if UPCAST:
        q = q.to(tl.float32)

    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)

    # Stage 1: key blocks that need no mask at all.
    if CAUSAL:
        full_hi = start_m * BLOCK_M                  # strictly left of the diagonal block
        tail_hi = tl.minimum((start_m + 1) * BLOCK_M, S)
    else:
        full_hi = (S // BLOCK_N) * BLOCK_N
        tail_hi = S
    acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, offs_m, offs_n, 0, full_hi, S,
                                qk_scale, stride_ks, stride_vs, False, CAUSAL, BLOCK_N, UPCAST)
    # Stage 2: the diagonal block(s) and the ragged end of the sequence, masked.
    acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, offs_m, offs_n, full_hi, tail_hi,
                                S, qk_scale, stride_ks, stride_vs, True, CAUSAL, BLOCK_N, UPCAST)

    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_os + offs_d[None, :]
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < S)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    """softmax(q k^T / sqrt(D) [causal mask]) v for [B, H, S, D] tensors; returns new O."""
    assert q.ndim == 4 and q.shape == k.shape == v.shape and q.dtype == k.dtype == v.dtype
    B, H, S, D = q.shape
    assert D in (16, 32, 64, 128, 256), "head_dim must be a power of two in [16, 256]"
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    qk_scale = 1.0 / math.sqrt(D) * 1.4426950408889634       # fold log2(e) for exp2
    grid = lambda meta: (triton.cdiv(S, meta["BLOCK_M"]), B * H)  # noqa: E731
    attn_fwd_kernel[grid](q, k, v, o, qk_scale, H, S,
                          *q.stride(), *k.stride(), *v.stride(), o.stride(0), o.stride(1), o.stride(2),
                          HEAD_DIM=D, CAUSAL=bool(causal),
                          UPCAST=INTERPRET and q.dtype == torch.bfloat16)
    return o


if __name__ == "__main__":
    import torch.nn.functional as F
    for D, H in ((64, 32), (128, 16)):
        for causal in (False, True):
            q, k, v = (torch.randn(4, H, 4096, D, device="cuda", dtype=torch.float16) for _ in range(3))
            torch.testing.assert_close(attention(q, k, v, causal),
                                       F.scaled_dot_product_attention(q, k, v, is_causal=causal),
                                       atol=1e-2, rtol=1e-2)
            ms = triton.testing.do_bench(lambda: attention(q, k, v, causal))
            fl = 4 * 4 * H * 4096 * 4096 * D * (0.5 if causal else 1.0)
            print(f"D={D} causal={causal}: {fl / ms * 1e-9:.0f} TFLOP/s")
