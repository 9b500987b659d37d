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

Two implementations. On Hopper (sm_90) with fp16/bf16 and head_dim 64 or 128, kernels written
in Gluon, Triton's lower-level dialect, where the schedule is spelled out:
- Q, K and V move by TMA (host-built descriptors over the 4-d tensors, whatever their strides:
  the packed-QKV layout too; rows past S read as zeros and are clipped on the store).
- attn_fwd_hopper_ws_kernel (head_dim 128; 64 non-causal above 1024 tokens) is warp-
  specialised like FlashAttention-3: one loader warp fills rings of K and V slots, and two or
  three consumer warp groups of 64 query rows each issue their asynchronous wgmma in turn (an
  mbarrier per group passes the turn), so one group's exp2 work runs while another's Q K^T
  and P V keep the tensor cores busy. setmaxnreg gives the loader 24 registers a thread and the
  consumers 240 (160-168 with three groups).
- Inside each group, block j's Q K^T is issued together with block j-1's P V (P from
  registers), then S_j is waited for and its softmax runs while that P V is still in flight.
- attn_fwd_hopper_kernel is the same loop without the partitions (one group of 4 warps or two
  of 8 in step): fastest for head_dim 64 causal and for short sequences.
Everywhere else (other GPUs, float32, other head_dims, Triton's interpreter) the Triton kernel
(attn_fwd_kernel), autotuned over H100 tiles (BLOCK_M 128 x BLOCK_N 64/128, 4-8 warps, 2-4
stages), keyed on S, D and causality; one small config in the interpreter. A 128-row tile on 4
warps is not tried at head_dim >= 128: its 128 x 128 float32 accumulator alone is 128 registers
a thread, and it spilled (4x slower on the H200).

Where it stands (H200, bench/results/peers.md, calls 52-54): the Triton kernel alone sat at
0.68-0.82x SDPA (cuDNN's attention) at head_dim 128, because its exp2 work and its tl.dot took
turns. With the Hopper kernels, at 4096 and 16384 tokens: head_dim 128, and 64 non-causal, at
0.95-1.17x the best of SDPA and torch.compile under all three timing protocols (met or within
noise); head_dim 64 causal at 0.91-0.94x; 4 x 32 x 1024 x 64 at 0.87-0.89x. The one-partition
kernel alone timed like the Triton one (1111 against 1127 us at 4 x 16 x 4096 x 128): with both
groups meeting at a barrier before every TMA issue their softmaxes still coincide; the warp-
specialised one took it to 826 (cuDNN 810) (bench/results/launch_tuning.md).
"""

import functools
import math
import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"

try:   # Gluon (Triton's lower-level dialect) with Hopper's TMA and wgmma; absent in old Tritons
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.language.nvidia.hopper import (
        fence_async_shared, mbarrier, tma, warpgroup_mma, warpgroup_mma_wait)
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor as GluonDescriptor
    # Triton 3.6 names the TMA copies async_copy_global_to_shared / async_copy_shared_to_global;
    # later versions async_load / async_store (and the old names raise).
    _tma_load = getattr(tma, "async_load", None) or tma.async_copy_global_to_shared
    _tma_store = getattr(tma, "async_store", None) or tma.async_copy_shared_to_global
except ImportError:      # pragma: no cover - depends on the Triton installed
    gluon = None


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


# --- Hopper (sm_90): Gluon, TMA and asynchronous wgmma --------------------------------------

# (head_dim, causal) -> (BLOCK_M, BLOCK_N, K/V stages, warps, consumer groups) on Hopper; consumer
# groups > 0 is the warp-specialised kernel. H200, bf16, engine us (bench/results/launch_tuning.md,
# calls 47-49): 4 x 16 x 4096 x 128: 826 (torch/cuDNN 810; the one-partition kernel 1111), causal 468
# (472); 4 x 32 x 4096 x 64: three groups 1107 (torch 1134; two groups 1264), causal: the
# one-partition 64-row tile 676 (628; two groups 698, three 704).
HOPPER_TILES = {(128, False): (128, 128, 2, 0, 2), (128, True): (128, 128, 2, 0, 2),
                (64, False): (192, 128, 3, 0, 3), (64, True): (64, 64, 4, 4, 0)}
# Up to this many tokens a 192-row tile leaves too much of each head's last tile empty (1024 =
# 5 x 192 + 64): at 4 x 32 x 1024 x 64 three groups took 103 us, the one-partition 64-row tile 96
# (call 53; torch 84).
SHORT_SEQ, SHORT_SEQ_TILE = 1024, (64, 64, 4, 4, 0)


@functools.lru_cache(maxsize=None)
def _capability(device_index: int) -> tuple[int, int]:
    return torch.cuda.get_device_capability(device_index)


@functools.lru_cache(maxsize=None)
def _box_layout(rows: int, head_dim: int, fp16: bool):
    """The shared-memory layout of a [1, 1, rows, head_dim] TMA box (128-byte swizzle at 64+
    columns). Cached: building it took ~5 us of the host's time, four times a call."""
    return gl.NVMMASharedLayout.get_default_for([1, 1, rows, head_dim], gl.float16 if fp16 else gl.bfloat16)


def hopper_tile(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool):
    """The Hopper kernels' tile for these inputs, or None where they do not apply: no Gluon,
    Triton's interpreter, not an sm_90 GPU, not fp16/bf16, a head_dim without a tile, or rows
    TMA cannot address (each row contiguous, the other strides and the base 16-byte aligned)."""
    if gluon is None or INTERPRET or not q.is_cuda or q.dtype not in (torch.float16, torch.bfloat16):
        return None
    tile = HOPPER_TILES.get((q.shape[-1], bool(causal)))
    if tile is None or _capability(q.device.index)[0] != 9:
        return None
    size = q.element_size()
    for t in (q, k, v):
        if t.stride(-1) != 1 or t.data_ptr() % 16 or any(s <= 0 or s * size % 16 for s in t.stride()[:-1]):
            return None
    if tile[4] == 3 and q.shape[2] <= SHORT_SEQ:
        return SHORT_SEQ_TILE
    return tile


if gluon is not None:
    @gluon.jit
    def _issue_load(desc, smem, bars, b, h, row, j, STAGES: gl.constexpr):
        slot = j % STAGES
        bar = bars.index(slot)
        mbarrier.expect(bar, desc.block_type.nbytes)
        _tma_load(desc, [b, h, row, 0], bar, smem.index(slot))

    @gluon.jit
    def _softmax(s, m_i, l_i, start_n, m0, S, qk_scale, MASKED: gl.constexpr, CAUSAL: gl.constexpr,
                 BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, s_layout: gl.constexpr):
        if MASKED:
            cols = start_n + gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, s_layout))
            valid = gl.expand_dims(cols, 0) < S
            if CAUSAL:
                rows = m0 + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, s_layout))
                valid = valid & (gl.expand_dims(rows, 1) >= gl.expand_dims(cols, 0))
            s = gl.where(valid, s * qk_scale, -float("inf"))
            m_new = gl.maximum(m_i, gl.max(s, 1))
            p = gl.exp2(s - gl.expand_dims(m_new, 1))
        else:
            m_new = gl.maximum(m_i, gl.max(s, 1) * qk_scale)
            p = gl.exp2(s * qk_scale - gl.expand_dims(m_new, 1))
        alpha = gl.exp2(m_i - m_new)
        l_i = l_i * alpha + gl.sum(p, 1)
        return p, m_new, l_i, alpha

    @gluon.jit
    def _softmax_at(s, m_i, l_i, start_n, full_hi, row0, S, qk_scale, CAUSAL: gl.constexpr,
                    ROWS: gl.constexpr, BLOCK_N: gl.constexpr, s_layout: gl.constexpr):
        """_softmax of the key block at start_n: masked from full_hi on, mask-free before it."""
        if start_n >= full_hi:
            p, m_i, l_i, alpha = _softmax(s, m_i, l_i, start_n, row0, S, qk_scale, True, CAUSAL,
                                          ROWS, BLOCK_N, s_layout)
        else:
            p, m_i, l_i, alpha = _softmax(s, m_i, l_i, start_n, row0, S, qk_scale, False, CAUSAL,
                                          ROWS, BLOCK_N, s_layout)
        return p, m_i, l_i, alpha

    @gluon.jit
    def _store_rows(acc, l_i, o_smem, o_desc, b, h, row0, ROWS: gl.constexpr, HEAD_DIM: gl.constexpr,
                    o_layout: gl.constexpr):
        """O = acc / l for ROWS rows, through shared memory and a TMA store (clipped at S)."""
        out = acc / gl.expand_dims(gl.convert_layout(l_i, gl.SliceLayout(1, o_layout)), 1)
        o_smem.reshape([ROWS, HEAD_DIM]).store(out.to(o_desc.dtype))
        fence_async_shared()
        _tma_store(o_desc, [b, h, row0, 0], o_smem)
        tma.store_wait(0)

    @gluon.jit
    def attn_fwd_hopper_kernel(q_desc, k_desc, v_desc, o_desc, qk_scale, H, S,
                               HEAD_DIM: gl.constexpr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr,
                               STAGES: gl.constexpr, CAUSAL: gl.constexpr, num_warps: gl.constexpr):
        dtype: gl.constexpr = q_desc.dtype
        if CAUSAL:       # the longest rows of the causal triangle first: a shorter tail
            start_m = gl.num_programs(0) - 1 - gl.program_id(0)
        else:
            start_m = gl.program_id(0)
        bh = gl.program_id(1)
        b = bh // H
        h = bh % H
        m0 = start_m * BLOCK_M

        s_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1],
                                                           instr_shape=[16, BLOCK_N, 16])
        o_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1],
                                                           instr_shape=[16, HEAD_DIM, 16])
        p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)

        q_smem = gl.allocate_shared_memory(dtype, [1, 1, BLOCK_M, HEAD_DIM], q_desc.layout)
        k_smem = gl.allocate_shared_memory(dtype, [STAGES, 1, 1, BLOCK_N, HEAD_DIM], k_desc.layout)
        v_smem = gl.allocate_shared_memory(dtype, [STAGES, 1, 1, BLOCK_N, HEAD_DIM], v_desc.layout)
        q_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
        k_bars = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
        v_bars = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
        mbarrier.init(q_bar, count=1)
        for i in gl.static_range(STAGES):
            mbarrier.init(k_bars.index(i), count=1)
            mbarrier.init(v_bars.index(i), count=1)
        fence_async_shared()

        if CAUSAL:
            hi = gl.minimum(m0 + BLOCK_M, S)
            full_hi = (m0 // BLOCK_N) * BLOCK_N     # key blocks wholly left of the tile's first row
        else:
            hi = S
            full_hi = (S // BLOCK_N) * BLOCK_N
        n_blocks = gl.cdiv(hi, BLOCK_N)

        mbarrier.expect(q_bar, q_desc.block_type.nbytes)
        _tma_load(q_desc, [b, h, m0, 0], q_bar, q_smem)
        for i in gl.static_range(STAGES):
            if i < n_blocks:
                _issue_load(k_desc, k_smem, k_bars, b, h, i * BLOCK_N, i, STAGES)
                _issue_load(v_desc, v_smem, v_bars, b, h, i * BLOCK_N, i, STAGES)
        mbarrier.wait(q_bar, 0)
        q = q_smem.reshape([BLOCK_M, HEAD_DIM])

        m_i = gl.full([BLOCK_M], -float("inf"), gl.float32, layout=gl.SliceLayout(1, s_layout))
        l_i = gl.zeros([BLOCK_M], gl.float32, layout=gl.SliceLayout(1, s_layout))
        s_zero = gl.zeros([BLOCK_M, BLOCK_N], gl.float32, layout=s_layout)
        acc = gl.zeros([BLOCK_M, HEAD_DIM], gl.float32, layout=o_layout)

        # Block 0: scores, softmax.
        mbarrier.wait(k_bars.index(0), 0)
        s_tok = warpgroup_mma(q, k_smem.index(0).reshape([BLOCK_N, HEAD_DIM]).permute((1, 0)), s_zero,
                              use_acc=False, is_async=True)
        s = warpgroup_mma_wait(0, deps=(s_tok,))
        if STAGES < n_blocks:       # K_0's slot is free: K_STAGES goes there
            _issue_load(k_desc, k_smem, k_bars, b, h, STAGES * BLOCK_N, STAGES, STAGES)
        p, m_i, l_i, alpha = _softmax_at(s, m_i, l_i, 0, full_hi, m0, S, qk_scale, CAUSAL, BLOCK_M,
                                         BLOCK_N, s_layout)
        p_op = gl.convert_layout(p.to(dtype), p_layout)

        for j in range(1, n_blocks):
            slot = j % STAGES
            prev = (j - 1) % STAGES
            # Issue S_j = Q K_j^T, then O += P_{j-1} V_{j-1}; the softmax of S_j runs under the second.
            mbarrier.wait(k_bars.index(slot), (j // STAGES) & 1)
            s_tok = warpgroup_mma(q, k_smem.index(slot).reshape([BLOCK_N, HEAD_DIM]).permute((1, 0)), s_zero,
                                  use_acc=False, is_async=True)
            mbarrier.wait(v_bars.index(prev), ((j - 1) // STAGES) & 1)
            acc_tok = warpgroup_mma(p_op, v_smem.index(prev).reshape([BLOCK_N, HEAD_DIM]), acc, is_async=True)
            s = warpgroup_mma_wait(1, deps=(s_tok,))
            start_n = j * BLOCK_N
            p, m_i, l_i, alpha = _softmax_at(s, m_i, l_i, start_n, full_hi, m0, S, qk_scale, CAUSAL,
                                             BLOCK_M, BLOCK_N, s_layout)
            acc, p_op = warpgroup_mma_wait(0, deps=(acc_tok, p_op))
            # K_j and V_{j-1} are consumed: their slots take K_{j+STAGES} and V_{j-1+STAGES}.
            if j - 1 + STAGES < n_blocks:
                _issue_load(v_desc, v_smem, v_bars, b, h, (j - 1 + STAGES) * BLOCK_N, j - 1 + STAGES, STAGES)
            if j + STAGES < n_blocks:
                _issue_load(k_desc, k_smem, k_bars, b, h, (j + STAGES) * BLOCK_N, j + STAGES, STAGES)
            acc = acc * gl.expand_dims(gl.convert_layout(alpha, gl.SliceLayout(1, o_layout)), 1)
            p_op = gl.convert_layout(p.to(dtype), p_layout)

        last = (n_blocks - 1) % STAGES
        mbarrier.wait(v_bars.index(last), ((n_blocks - 1) // STAGES) & 1)
        acc_tok = warpgroup_mma(p_op, v_smem.index(last).reshape([BLOCK_N, HEAD_DIM]), acc, is_async=True)
        acc, p_op = warpgroup_mma_wait(0, deps=(acc_tok, p_op))

        mbarrier.invalidate(q_bar)
        for i in gl.static_range(STAGES):
            mbarrier.invalidate(k_bars.index(i))
            mbarrier.invalidate(v_bars.index(i))

        o_smem = gl.allocate_shared_memory(dtype, [1, 1, BLOCK_M, HEAD_DIM], o_desc.layout)
        _store_rows(acc, l_i, o_smem, o_desc, b, h, m0, BLOCK_M, HEAD_DIM, o_layout)

    @gluon.jit
    def _ws_loader(q_desc, k_desc, v_desc, smem, bars, b, h, m0, n_blocks, ROWS: gl.constexpr,
                   CONSUMERS: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr):
        """One warp: each consumer's rows of Q, then K and V blocks into their rings as slots free up."""
        q_smem, k_smem, v_smem, o_smem = smem
        q_bar, k_full, v_full, k_empty, v_empty, turn = bars
        mbarrier.expect(q_bar, CONSUMERS * q_desc.block_type.nbytes)
        for c in gl.static_range(CONSUMERS):
            _tma_load(q_desc, [b, h, m0 + c * ROWS, 0], q_bar, q_smem.index(c))
        for k in range(n_blocks):
            slot = k % STAGES
            free = ((k // STAGES) & 1) ^ 1       # a fresh barrier reads as freed on the first pass
            mbarrier.wait(k_empty.index(slot), free)
            mbarrier.expect(k_full.index(slot), k_desc.block_type.nbytes)
            _tma_load(k_desc, [b, h, k * BLOCK_N, 0], k_full.index(slot), k_smem.index(slot))
            mbarrier.wait(v_empty.index(slot), free)
            mbarrier.expect(v_full.index(slot), v_desc.block_type.nbytes)
            _tma_load(v_desc, [b, h, k * BLOCK_N, 0], v_full.index(slot), v_smem.index(slot))

    @gluon.jit
    def _ws_consumer(smem, bars, o_desc, tile, INDEX: gl.constexpr, shape: gl.constexpr):
        """One warp group: rows [m0 + ROWS * INDEX, + ROWS) of the tile. The groups issue their
        matrix multiplies in turn (`turn`: group INDEX waits for its own barrier, then signals the
        next group's), so one group's softmax runs while another's Q K^T and P V keep the tensor
        cores busy."""
        q_smem, k_smem, v_smem, o_smem = smem
        q_bar, k_full, v_full, k_empty, v_empty, turn = bars
        b, h, m0, n_blocks, full_hi, S, qk_scale = tile
        CONSUMERS: gl.constexpr = shape[0]
        HEAD_DIM: gl.constexpr = shape[1]
        ROWS: gl.constexpr = shape[2]
        BLOCK_N: gl.constexpr = shape[3]
        STAGES: gl.constexpr = shape[4]
        CAUSAL: gl.constexpr = shape[5]
        dtype: gl.constexpr = o_desc.dtype
        s_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                           instr_shape=[16, BLOCK_N, 16])
        o_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                           instr_shape=[16, HEAD_DIM, 16])
        p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)
        HALF: gl.constexpr = ROWS
        row0 = m0 + ROWS * INDEX
        me = turn.index(INDEX)
        other = turn.index((INDEX + 1) % CONSUMERS)

        m_i = gl.full([HALF], -float("inf"), gl.float32, layout=gl.SliceLayout(1, s_layout))
        l_i = gl.zeros([HALF], gl.float32, layout=gl.SliceLayout(1, s_layout))
        s_zero = gl.zeros([HALF, BLOCK_N], gl.float32, layout=s_layout)
        acc = gl.zeros([HALF, HEAD_DIM], gl.float32, layout=o_layout)

        mbarrier.wait(q_bar, 0)
        q = q_smem.index(INDEX).reshape([HALF, HEAD_DIM])
        mbarrier.wait(k_full.index(0), 0)
        s_tok = warpgroup_mma(q, k_smem.index(0).reshape([BLOCK_N, HEAD_DIM]).permute((1, 0)), s_zero,
                              use_acc=False, is_async=True)
        s = warpgroup_mma_wait(0, deps=(s_tok,))
        mbarrier.arrive(k_empty.index(0), count=1)
        p, m_i, l_i, alpha = _softmax_at(s, m_i, l_i, 0, full_hi, row0, S, qk_scale, CAUSAL, HALF,
                                         BLOCK_N, s_layout)
        p_op = gl.convert_layout(p.to(dtype), p_layout)

        for j in range(1, n_blocks):
            slot = j % STAGES
            prev = (j - 1) % STAGES
            mbarrier.wait(k_full.index(slot), (j // STAGES) & 1)
            mbarrier.wait(v_full.index(prev), ((j - 1) // STAGES) & 1)
            mbarrier.wait(me, (j - 1) & 1)
            s_tok = warpgroup_mma(q, k_smem.index(slot).reshape([BLOCK_N, HEAD_DIM]).permute((1, 0)), s_zero,
                                  use_acc=False, is_async=True)
            acc_tok = warpgroup_mma(p_op, v_smem.index(prev).reshape([BLOCK_N, HEAD_DIM]), acc, is_async=True)
            mbarrier.arrive(other, count=1)
            s = warpgroup_mma_wait(1, deps=(s_tok,))
            mbarrier.arrive(k_empty.index(slot), count=1)
            start_n = j * BLOCK_N
            p, m_i, l_i, alpha = _softmax_at(s, m_i, l_i, start_n, full_hi, row0, S, qk_scale, CAUSAL,
                                             HALF, BLOCK_N, s_layout)
            acc, p_op = warpgroup_mma_wait(0, deps=(acc_tok, p_op))
            mbarrier.arrive(v_empty.index(prev), count=1)
            acc = acc * gl.expand_dims(gl.convert_layout(alpha, gl.SliceLayout(1, o_layout)), 1)
            p_op = gl.convert_layout(p.to(dtype), p_layout)

        last = (n_blocks - 1) % STAGES
        mbarrier.wait(v_full.index(last), ((n_blocks - 1) // STAGES) & 1)
        acc_tok = warpgroup_mma(p_op, v_smem.index(last).reshape([BLOCK_N, HEAD_DIM]), acc, is_async=True)
        acc, p_op = warpgroup_mma_wait(0, deps=(acc_tok, p_op))
        mbarrier.arrive(v_empty.index(last), count=1)

        _store_rows(acc, l_i, o_smem.index(INDEX), o_desc, b, h, row0, HALF, HEAD_DIM, o_layout)

    @gluon.jit
    def attn_fwd_hopper_ws_kernel(q_desc, k_desc, v_desc, o_desc, qk_scale, H, S,
                                  HEAD_DIM: gl.constexpr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr,
                                  STAGES: gl.constexpr, CAUSAL: gl.constexpr, CONSUMERS: gl.constexpr,
                                  CONSUMER_REGS: gl.constexpr, LOADER_REGS: gl.constexpr):
        """FlashAttention-3's layout of work on Hopper: a loader warp feeds TMA rings of K and V, and
        CONSUMERS (2 or 3) warp groups of 4 warps, BLOCK_M / CONSUMERS rows each, take turns on the
        tensor cores. Within each group block j's Q K^T is issued with block j-1's P V, and block
        j's softmax runs while that P V does."""
        ROWS: gl.constexpr = BLOCK_M // CONSUMERS
        dtype: gl.constexpr = q_desc.dtype
        if CAUSAL:
            start_m = gl.num_programs(0) - 1 - gl.program_id(0)
        else:
            start_m = gl.program_id(0)
        bh = gl.program_id(1)
        b = bh // H
        h = bh % H
        m0 = start_m * BLOCK_M
        if CAUSAL:
            hi = gl.minimum(m0 + BLOCK_M, S)
            full_hi = (m0 // BLOCK_N) * BLOCK_N     # key blocks wholly left of the tile's first row
        else:
            hi = S
            full_hi = (S // BLOCK_N) * BLOCK_N
        n_blocks = gl.cdiv(hi, BLOCK_N)

        q_smem = gl.allocate_shared_memory(dtype, [CONSUMERS, 1, 1, ROWS, HEAD_DIM], q_desc.layout)
        o_smem = gl.allocate_shared_memory(dtype, [CONSUMERS, 1, 1, ROWS, HEAD_DIM], o_desc.layout)
        k_smem = gl.allocate_shared_memory(dtype, [STAGES, 1, 1, BLOCK_N, HEAD_DIM], k_desc.layout)
        v_smem = gl.allocate_shared_memory(dtype, [STAGES, 1, 1, BLOCK_N, HEAD_DIM], v_desc.layout)
        q_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
        k_full = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
        v_full = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
        k_empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
        v_empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
        turn = gl.allocate_shared_memory(gl.int64, [CONSUMERS, 1], mbarrier.MBarrierLayout())
        mbarrier.init(q_bar, count=1)
        for i in gl.static_range(STAGES):
            mbarrier.init(k_full.index(i), count=1)
            mbarrier.init(v_full.index(i), count=1)
            mbarrier.init(k_empty.index(i), count=CONSUMERS)      # every consumer group releases a slot
            mbarrier.init(v_empty.index(i), count=CONSUMERS)
        for c in gl.static_range(CONSUMERS):
            mbarrier.init(turn.index(c), count=1)
        fence_async_shared()
        mbarrier.arrive(turn.index(0), count=1)           # group 0 multiplies first

        smem = (q_smem, k_smem, v_smem, o_smem)
        bars = (q_bar, k_full, v_full, k_empty, v_empty, turn)
        tile = (b, h, m0, n_blocks, full_hi, S, qk_scale)
        shape: gl.constexpr = (CONSUMERS, HEAD_DIM, ROWS, BLOCK_N, STAGES, CAUSAL)
        if CONSUMERS == 2:
            gl.warp_specialize([(_ws_consumer, (smem, bars, o_desc, tile, 0, shape)),
                                (_ws_consumer, (smem, bars, o_desc, tile, 1, shape)),
                                (_ws_loader, (q_desc, k_desc, v_desc, smem, bars, b, h, m0, n_blocks, ROWS,
                                              CONSUMERS, BLOCK_N, STAGES))],
                               [4, 1], [CONSUMER_REGS, LOADER_REGS])
        else:
            gl.warp_specialize([(_ws_consumer, (smem, bars, o_desc, tile, 0, shape)),
                                (_ws_consumer, (smem, bars, o_desc, tile, 1, shape)),
                                (_ws_consumer, (smem, bars, o_desc, tile, 2, shape)),
                                (_ws_loader, (q_desc, k_desc, v_desc, smem, bars, b, h, m0, n_blocks, ROWS,
                                              CONSUMERS, BLOCK_N, STAGES))],
                               [4, 4, 1], [CONSUMER_REGS, CONSUMER_REGS, LOADER_REGS])


def attention_hopper(q, k, v, causal, block_m, block_n, stages, warps, consumers=0):
    """One of the Hopper kernels at a given tile (attention() picks it; bench/ times the others).
    consumers 2 or 3: the warp-specialised kernel, with that many consumer warp groups of 4 warps
    and 64 rows each (block_m = 64 x consumers) and a loader warp (`warps` unused); 0: the
    one-partition kernel on `warps` warps."""
    B, H, S, D = q.shape
    o = torch.empty((B, H, S, D), dtype=q.dtype, device=q.device)
    fp16 = q.dtype == torch.float16

    def desc(t, rows):            # a [1, 1, rows, D] box of the 4-d tensor, whatever its strides
        return GluonDescriptor(t, list(t.shape), list(t.stride()), [1, 1, rows, D],
                               _box_layout(rows, D, fp16))

    qk_scale = 1.0 / math.sqrt(D) * 1.4426950408889634
    if consumers:
        assert consumers in (2, 3) and block_m == 64 * consumers, (consumers, block_m)
        # The loader's warp rounds up to a group of 4: 12 or 16 warps share the SM's 64K registers
        # (168 or 128 a thread at launch). The loader group gives back all but 24; the consumer
        # groups take 240 each (2 groups) or 160 and 168 (3 groups: the default partition gets
        # what is left, Triton's AllocateWarpGroups).
        regs, maxnreg = (240, 168) if consumers == 2 else (160, 128)
        attn_fwd_hopper_ws_kernel[(triton.cdiv(S, block_m), B * H)](
            desc(q, 64), desc(k, block_n), desc(v, block_n), desc(o, 64), qk_scale, H, S,
            HEAD_DIM=D, BLOCK_M=block_m, BLOCK_N=block_n, STAGES=stages, CAUSAL=bool(causal),
            CONSUMERS=consumers, CONSUMER_REGS=regs, LOADER_REGS=24, num_warps=4, maxnreg=maxnreg)
        return o
    attn_fwd_hopper_kernel[(triton.cdiv(S, block_m), B * H)](
        desc(q, block_m), desc(k, block_n), desc(v, block_n), desc(o, block_m), qk_scale, H, S,
        HEAD_DIM=D, BLOCK_M=block_m, BLOCK_N=block_n, STAGES=stages, CAUSAL=bool(causal),
        num_warps=warps)
    return o

def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    """softmax(q k^T / sqrt(D) [causal mask]) v for [B, H, S, D] tensors; returns new O."""
    assert q.ndim == 4 and q.shape == k.shape == v.shape and q.dtype == k.dtype == v.dtype
    B, H, S, D = q.shape
    assert D in (16, 32, 64, 128, 256), "head_dim must be a power of two in [16, 256]"
    tile = hopper_tile(q, k, v, causal)
    if tile is not None:
        return attention_hopper(q, k, v, causal, *tile)
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
