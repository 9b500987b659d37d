"""Reference solution: rotary position embedding (RoPE) on q [B, S, H, D], half-rotated.

Layout: half-rotated (GPT-NeoX / Llama `rotate_half`): dimension i is paired with
i + D/2, not with its neighbour (the interleaved GPT-J layout pairs 2i with 2i+1):

    out[..., i]       = q[..., i] * cos[s, i] - q[..., i + D/2] * sin[s, i]
    out[..., i + D/2] = q[..., i + D/2] * cos[s, i] + q[..., i] * sin[s, i]

for i < D/2, with float32 tables cos/sin of shape [>= S, D/2] indexed by position s.

Bytes model: read q, write out (B*S*H*D * itemsize each) plus the S * D/2 cos and sin
entries; 3 flops per element: memory-bound. The tables are tiny next to q, but only if
they are reused: one program handles one (batch, position) pair and BLOCK_H heads at once,
so it loads cos[s] and sin[s] once and applies them to every head (a broadcast in
registers), and reads each head's two halves as two [BLOCK_H, BLOCK_HALF] tiles.

Strides are honoured in every dimension, so q may be a slice of a fused QKV projection
or a heads-first tensor viewed as [B, S, H, D]; the output is contiguous.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def rope_kernel(q_ptr, cos_ptr, sin_ptr, out_ptr, S, H, HALF,
                stride_qb, stride_qs, stride_qh, stride_qd, stride_cs, stride_ss,
                stride_ob, stride_os, stride_oh,
                BLOCK_H: tl.constexpr, BLOCK_HALF: tl.constexpr):
    pid = tl.program_id(0)          # one (batch, position) pair
    b = (pid // S).to(tl.int64)
    s = (pid % S).to(tl.int64)
    heads = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    dims = tl.arange(0, BLOCK_HALF)
    dmask = dims < HALF
    mask = (heads < H)[:, None] & dmask[None, :]
    # The position's table row: loaded once, broadcast over the heads.
    c = tl.load(cos_ptr + s * stride_cs + dims, mask=dmask, other=0.0).to(tl.float32)[None, :]
    sn = tl.load(sin_ptr + s * stride_ss + dims, mask=dmask, other=0.0).to(tl.float32)[None, :]
    q_base = q_ptr + b * stride_qb + s * stride_qs + heads[:, None] * stride_qh
    q1 = tl.load(q_base + dims[None, :] * stride_qd, mask=mask, other=0.0).to(tl.float32)
    q2 = tl.load(q_base + (dims[None, :] + HALF) * stride_qd, mask=mask, other=0.0).to(tl.float32)
    o_base = out_ptr + b * stride_ob + s * stride_os + heads[:, None] * stride_oh
    ty = out_ptr.dtype.element_ty
    tl.store(o_base + dims[None, :], (q1 * c - q2 * sn).to(ty), mask=mask)
    tl.store(o_base + dims[None, :] + HALF, (q2 * c + q1 * sn).to(ty), mask=mask)


def rope(q: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Apply half-rotated RoPE to q [B, S, H, D]; cos/sin float32 [>= S, D/2]; new tensor."""
    assert q.ndim == 4 and q.shape[3] % 2 == 0, "q is [batch, seq, heads, head_dim], head_dim even"
    B, S, H, D = q.shape
    half = D // 2
    assert cos.shape[0] >= S and cos.shape[1] == half and sin.shape == cos.shape
    assert cos.stride(1) == 1 and sin.stride(1) == 1, "tables must have unit column stride"
    out = torch.empty((B, S, H, D), dtype=q.dtype, device=q.device)
    block_half = triton.next_power_of_2(half)
    block_h = max(1, min(triton.next_power_of_2(H), 2048 // block_half))
    grid = (B * S, triton.cdiv(H, block_h))
    rope_kernel[grid](q, cos, sin, out, S, H, half,
                      q.stride(0), q.stride(1), q.stride(2), q.stride(3),
                      cos.stride(0), sin.stride(0), out.stride(0), out.stride(1), out.stride(2),
                      BLOCK_H=block_h, BLOCK_HALF=block_half, num_warps=4)
    return out


if __name__ == "__main__":
    import importlib.util, pathlib
    spec_path = pathlib.Path(__file__).with_name("spec.py")
    mod = importlib.util.spec_from_file_location("rope_spec", spec_path)
    spec = importlib.util.module_from_spec(mod)
    mod.loader.exec_module(spec)
    q = torch.randn(8, 4096, 32, 128, device="cuda", dtype=torch.bfloat16)
    cos, sin = (t.cuda() for t in spec.rope_tables(4096, 128))
    torch.testing.assert_close(rope(q, cos, sin), spec.baseline(q, cos, sin), atol=2e-2, rtol=2e-2)
    ms = triton.testing.do_bench(lambda: rope(q, cos, sin))
    print(f"{2 * q.numel() * q.element_size() / ms * 1e-6:.0f} GB/s")
