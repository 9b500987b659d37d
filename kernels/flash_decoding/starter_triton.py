"""Flash-decoding in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run flash_decoding path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def split_kv_kernel(q_ptr, k_ptr, v_ptr, lens_ptr, lse_ptr, part_ptr, qk_scale, Hkv, SPLIT_LEN,
                    NUM_SPLITS, stride_qb, stride_qh, stride_kb, stride_kt, stride_kh,
                    stride_vb, stride_vt, stride_vh,
                    G: tl.constexpr, G_PAD: tl.constexpr, HEAD_DIM: tl.constexpr,
                    BLOCK_N: tl.constexpr):
    """Suggested shape: grid (B * Hkv, NUM_SPLITS). A program owns sequence b, KV head kvh,
    its G query heads (a [G_PAD, HEAD_DIM] block of q, G_PAD >= 16 rows for tl.dot) and the
    tokens [split * SPLIT_LEN, min((split + 1) * SPLIT_LEN, lens[b])). Walk them in BLOCK_N
    steps, K and V rows at k_ptr + b * stride_kb + t * stride_kt + kvh * stride_kh, loads
    masked to t < lens[b]; online softmax (running max m, sum l, rescaled accumulator).
    Store the split's partial output acc / l and its log-sum-exp m + log(l) for the real
    heads; a split that starts past lens[b] has no tokens: leave it out.
    """
    pass


@triton.jit
def combine_kernel(lse_ptr, part_ptr, lens_ptr, out_ptr, Hq, SPLIT_LEN, NUM_SPLITS,
                   HEAD_DIM: tl.constexpr, SPLITS_PAD: tl.constexpr):
    """Suggested shape: grid (B * Hq,). Over the splits that held tokens,
    cdiv(lens[b], SPLIT_LEN) of them: w_i = exp(lse_i - max_j lse_j),
    out = sum_i w_i * part_i / sum_i w_i, stored in out's dtype.
    """
    pass


def flash_decoding(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
                   cache_seqlens: torch.Tensor) -> torch.Tensor:
    """Return out[b, h] = softmax(q[b, h] . K_b^T / sqrt(D)) V_b (one decode step).

    q: [B, Hq, D], float16 / bfloat16 (float32 also checked), D = 64 or 128; rows may be
       strided (a view of a fused QKV output).
    k_cache, v_cache: [B, Lmax, Hkv, D] (flash_attn_with_kvcache's layout), q's dtype, the
       head dim contiguous, any other strides (they may be views of [B, Hkv, Lmax, D]
       buffers or halves of one [B, Lmax, 2, Hkv, D] buffer). Hq is a multiple of Hkv;
       query head h reads KV head h // (Hq // Hkv).
    cache_seqlens: [B] int32, each in [1, Lmax]: sequence b's context is
       k_cache[b, :cache_seqlens[b]]. The slots after it are spare capacity (NaN in the
       drill's inputs): never read them.
    Returns a new [B, Hq, D] tensor of q's dtype. Do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("flash_decoding: allocate the output and launch your Triton kernels")
