"""Reference solution: Mamba's causal depthwise conv1d (+ SiLU) in one Triton kernel.

out[b, d, t] = bias[d] + sum_k weight[d, k] * x[b, d, t - (K-1) + k], x = 0 before t = 0,
then silu(out) if asked. Each channel has its own K taps (depthwise): there is no
reduction over channels, so this is a stencil, not a matmul.

Why it is fast: every output needs K inputs, but neighbouring outputs share K - 1 of
them. A program owns a [BLOCK_D, BLOCK_L] tile of one batch element and computes the
tile as K shifted loads of the same x rows: the first load brings the tile (plus K - 1
elements of left halo) in from DRAM, the other K - 1 hit L1/L2. DRAM traffic is then
about one read of x and one write of out (bytes model (2*B*D*L + D*K + D) * itemsize),
the floor for this op. The taps and the bias are loaded once per tile and kept in
registers for all of its BLOCK_L time steps. At 2K + 4 flops per output the kernel is
memory-bound by a wide margin, so the remaining work is to keep the loads coalesced:

- x contiguous along L (contiguous, padded rows): wide tiles along L (BLOCK_L up to 256),
  a few channels each.
- x contiguous along D (channels_last, Mamba's xz slice of the in_proj output): tall tiles
  along D (BLOCK_D up to 128) so each load instruction reads consecutive channels; no
  transposed copy of x is ever made. Triton turns the tile around in shared memory for
  the store, since out is always contiguous (B, D, L).

Causal boundary: tap k of output t reads time t - (K-1) + k; masked loads with other=0
supply the left zero padding, so t < K - 1 (and L < K) needs no special case.

Aligned loads: tap k reads x shifted by K - 1 - k steps, so K - 1 of the K loads start off a
vector boundary and every element becomes its own scalar load (2 bytes in bf16): measured at
55-60% of copy bandwidth in bf16. For x contiguous along L and K <= 5,
`causal_conv1d_vec_kernel` takes the time steps in groups of four, loads each group and the one
before it whole (aligned: vector loads), picks each tap's window lane by lane in registers, and
stores the group whole: 86% in bf16, 99% in float32 (VEC_TILE, call 90). The other layouts keep
the shifted-load kernel.

Math in float32, rounded once. SiLU as out * sigmoid(out) with sigmoid built from
e = exp(-|out|) in (0, 1] (1 / (1 + e) or e / (1 + e) by sign): no exp overflows for any |out|.
The shifted-load kernel's launch is a heuristic (about 4K outputs per program), not tuned on a GPU.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _silu(a):
    """silu(a) = a * sigmoid(a), sigmoid from e = exp(-|a|) in (0, 1]: no exp overflows."""
    e = tl.exp2(-tl.abs(a) * 1.4426950408889634)
    r = 1.0 / (1.0 + e)
    return a * tl.where(a >= 0, r, e * r)


@triton.jit
def causal_conv1d_kernel(x_ptr, w_ptr, b_ptr, y_ptr, D, L,
                         stride_xb, stride_xd, stride_xl, stride_wd, stride_wk, stride_b,
                         K: tl.constexpr, ACTIVATION: tl.constexpr,
                         BLOCK_D: tl.constexpr, BLOCK_L: tl.constexpr):
    pid_l = tl.program_id(0)
    pid_d = tl.program_id(1)
    batch = tl.program_id(2).to(tl.int64)
    chans = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    times = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    d_mask = chans < D
    rows = x_ptr + batch * stride_xb + chans.to(tl.int64)[:, None] * stride_xd

    acc = tl.zeros([BLOCK_D, BLOCK_L], dtype=tl.float32)
    acc += tl.load(b_ptr + chans * stride_b, mask=d_mask, other=0.0).to(tl.float32)[:, None]
    for k in tl.static_range(K):
        src = times - (K - 1 - k)                      # the causal window: t-(K-1) .. t
        m = d_mask[:, None] & ((src >= 0) & (src < L))[None, :]
        xv = tl.load(rows + src.to(tl.int64)[None, :] * stride_xl, mask=m, other=0.0)
        wv = tl.load(w_ptr + chans * stride_wd + k * stride_wk, mask=d_mask, other=0.0)
        acc += wv.to(tl.float32)[:, None] * xv.to(tl.float32)
    if ACTIVATION:
        acc = _silu(acc)

    out_rows = (batch * D + chans.to(tl.int64))[:, None] * L
    tl.store(y_ptr + out_rows + times[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=d_mask[:, None] & (times < L)[None, :])


@triton.jit
def _lane(p0, p1, p2, p3, c0, c1, c2, c3, i: tl.constexpr):
    """Lane i of the eight: 0-3 the previous group of four time steps, 4-7 the current one."""
    r = c3
    if i == 0:
        r = p0
    if i == 1:
        r = p1
    if i == 2:
        r = p2
    if i == 3:
        r = p3
    if i == 4:
        r = c0
    if i == 5:
        r = c1
    if i == 6:
        r = c2
    return r


@triton.jit
def _split4(v, BLOCK_D: tl.constexpr, GROUPS: tl.constexpr):
    """[BLOCK_D, GROUPS, 4] -> its four lanes, each [BLOCK_D, GROUPS]: the inverse of
    tl.join(tl.join(a0, a2), tl.join(a1, a3))."""
    lo, hi = tl.split(tl.reshape(v, [BLOCK_D, GROUPS, 2, 2]))
    a0, a2 = tl.split(lo)
    a1, a3 = tl.split(hi)
    return a0, a1, a2, a3


@triton.jit
def _tap_sum(acc, wk, p0, p1, p2, p3, c0, c1, c2, c3, w: tl.constexpr, K: tl.constexpr, k: tl.constexpr):
    return acc + wk * _lane(p0, p1, p2, p3, c0, c1, c2, c3, 4 + w - (K - 1) + k).to(tl.float32)


@triton.jit
def causal_conv1d_vec_kernel(x_ptr, w_ptr, b_ptr, y_ptr, D, L, stride_xb, stride_xd, stride_wd, stride_wk,
                             stride_b, K: tl.constexpr, ACTIVATION: tl.constexpr,
                             BLOCK_D: tl.constexpr, BLOCK_L: tl.constexpr):
    """The same conv for x contiguous along L and K <= 5, without misaligned loads: time steps in
    groups of four, each output group built from its own group of x and the one before (both
    loaded whole, so the loads can be vectors), the shifted windows picked lane by lane in
    registers."""
    pid_l = tl.program_id(0)
    pid_d = tl.program_id(1)
    batch = tl.program_id(2).to(tl.int64)
    chans = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    d_mask = chans < D
    t = (pid_l * (BLOCK_L // 4) + tl.arange(0, BLOCK_L // 4))[:, None] * 4 + tl.arange(0, 4)[None, :]
    t = t[None, :, :]                                                   # [1, groups, 4]
    rows = x_ptr + batch * stride_xb + chans.to(tl.int64)[:, None, None] * stride_xd
    dm = d_mask[:, None, None]
    cur = tl.load(rows + t, mask=dm & (t < L), other=0.0)
    prev = tl.load(rows + (t - 4), mask=dm & (t >= 4) & (t - 4 < L), other=0.0)
    c0, c1, c2, c3 = _split4(cur, BLOCK_D, BLOCK_L // 4)
    p0, p1, p2, p3 = _split4(prev, BLOCK_D, BLOCK_L // 4)
    bias = tl.load(b_ptr + chans * stride_b, mask=d_mask, other=0.0).to(tl.float32)[:, None]
    a0 = tl.zeros([BLOCK_D, BLOCK_L // 4], dtype=tl.float32) + bias
    a1 = a0
    a2 = a0
    a3 = a0
    for k in tl.static_range(K):
        wk = tl.load(w_ptr + chans * stride_wd + k * stride_wk, mask=d_mask, other=0.0).to(tl.float32)[:, None]
        a0 = _tap_sum(a0, wk, p0, p1, p2, p3, c0, c1, c2, c3, 0, K, k)
        a1 = _tap_sum(a1, wk, p0, p1, p2, p3, c0, c1, c2, c3, 1, K, k)
        a2 = _tap_sum(a2, wk, p0, p1, p2, p3, c0, c1, c2, c3, 2, K, k)
        a3 = _tap_sum(a3, wk, p0, p1, p2, p3, c0, c1, c2, c3, 3, K, k)
    acc = tl.join(tl.join(a0, a2), tl.join(a1, a3))                    # [BLOCK_D, groups, 2, 2]
    acc = tl.reshape(acc, [BLOCK_D, BLOCK_L // 4, 4])
    if ACTIVATION:
        acc = _silu(acc)
    out_rows = (batch * D + chans.to(tl.int64))[:, None, None] * L
    tl.store(y_ptr + out_rows + t, acc.to(y_ptr.dtype.element_ty), mask=dm & (t < L))


VEC_MAX_K = 5


ELEMS_PER_PROGRAM = 4096
# The vectorised kernel's tile: 2 channels x 1024 time steps on 4 warps. On the H200
# (bench/launch_tuning.py --what causal_conv1d --variants vec, call 90, 30 tiles) it took bf16
# 8 x 4096 x 8192 from 418.4 to 291.8 us (60% -> 86% of copy bandwidth) and 4 x 4096 x 2048 from
# 58.1 to 39.8; float32 8 x 4096 x 8192 from 620.3 to 506.8 (99%; the fastest, 503.7, on 8 warps).
VEC_TILE = (2, 1024, 4)


def use_vec(x: torch.Tensor, K: int) -> bool:
    """Whether causal_conv1d_vec_kernel takes x: contiguous along L (rows may be padded) and K <= 5
    (the drill's K is 2 to 4; a longer filter, called from outside the drill, keeps the shifted loads)."""
    return x.stride(2) == 1 and K <= VEC_MAX_K


def vec_launch(D: int, L: int) -> tuple[int, int, int]:
    """(BLOCK_D, BLOCK_L, num_warps) of the vectorised kernel: VEC_TILE, its time steps cut to L's
    power of two (at least 4) for short rows with channels added to keep ~2048 outputs a program."""
    block_d, block_l, warps = VEC_TILE
    if L < block_l:
        block_l = max(4, triton.next_power_of_2(L))
        block_d = max(block_d, 2048 // block_l)
    block_d = min(block_d, triton.next_power_of_2(D))
    return block_d, block_l, warps if block_d * block_l >= 1024 else 1


def launch_shape(x: torch.Tensor) -> tuple[int, int, int]:
    """(BLOCK_D, BLOCK_L, num_warps): long along whichever axis of x is contiguous."""
    _, D, L = x.shape
    if x.stride(2) == 1 or x.stride(1) != 1:
        block_l = min(triton.next_power_of_2(L), 256)
        block_d = min(triton.next_power_of_2(D), max(1, ELEMS_PER_PROGRAM // block_l))
    else:
        block_d = min(triton.next_power_of_2(D), 128)
        block_l = min(triton.next_power_of_2(L), max(1, ELEMS_PER_PROGRAM // block_d))
    num_warps = 4 if block_d * block_l >= 1024 else 1
    return block_d, block_l, num_warps


def causal_conv1d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                  activation: bool) -> torch.Tensor:
    """Causal depthwise conv1d over the last axis of x (B, D, L), then SiLU if activation.
    Returns a new contiguous (B, D, L) tensor of x's dtype."""
    assert x.ndim == 3 and weight.ndim == 2 and weight.shape[0] == x.shape[1]
    assert bias.shape == (x.shape[1],)
    B, D, L = x.shape
    K = weight.shape[1]
    y = torch.empty((B, D, L), dtype=x.dtype, device=x.device)
    if use_vec(x, K):
        block_d, block_l, num_warps = vec_launch(D, L)
        causal_conv1d_vec_kernel[(triton.cdiv(L, block_l), triton.cdiv(D, block_d), B)](
            x, weight, bias, y, D, L, x.stride(0), x.stride(1), weight.stride(0), weight.stride(1), bias.stride(0),
            K=K, ACTIVATION=bool(activation), BLOCK_D=block_d, BLOCK_L=block_l, num_warps=num_warps)
        return y
    block_d, block_l, num_warps = launch_shape(x)
    grid = (triton.cdiv(L, block_l), triton.cdiv(D, block_d), B)
    causal_conv1d_kernel[grid](
        x, weight, bias, y, D, L,
        x.stride(0), x.stride(1), x.stride(2), weight.stride(0), weight.stride(1), bias.stride(0),
        K=K, ACTIVATION=bool(activation), BLOCK_D=block_d, BLOCK_L=block_l, num_warps=num_warps)
    return y


if __name__ == "__main__":
    # Quick self-check on a GPU: python kernels/causal_conv1d/solution.py
    import torch.nn.functional as F
    B, D, L, K = 4, 4096, 2048, 4
    x = torch.randn(B, D, L, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(D, K, device="cuda", dtype=x.dtype) * 0.5
    b = torch.randn(D, device="cuda", dtype=x.dtype)
    expected = F.silu(F.conv1d(x, w.unsqueeze(1), b, padding=K - 1, groups=D)[..., :L])
    torch.testing.assert_close(causal_conv1d(x, w, b, True), expected, atol=2e-2, rtol=2e-2)
    ms = triton.testing.do_bench(lambda: causal_conv1d(x, w, b, True))
    print(f"{2 * x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
