"""RoPE drill: inputs, float64 reference, torch baseline, bytes and flops models.

Runs in the drill child only (imports torch). A case's shape is [batch, seq, heads,
head_dim] of q (head_dim even). cos and sin are float32 tables of shape
[table_len, head_dim // 2] (table_len = the case's `table_len`, default seq: a cache
built for a longer context must still work), cos[p, i] = cos(p * theta_i),
theta_i = base^(-2i / head_dim). Half-rotated (GPT-NeoX / Llama "rotate_half") layout.

Layouts: contiguous; `qkv_slice` (q is the first third of a fused [B, S, 3*H, D]
projection: row strides 3x larger); `heads_first` (q is a [B, H, S, D] tensor viewed
as [B, S, H, D] with .transpose(1, 2)).
"""

import torch

from studio.drills.harness.inputs import dtype_of


def rope_tables(length, head_dim, base=10000.0):
    inv_freq = base ** (-torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
    angles = torch.arange(length, dtype=torch.float64)[:, None] * inv_freq[None, :]
    return torch.cos(angles).float(), torch.sin(angles).float()


def make_inputs(case, gen, device):
    B, S, H, D = case["shape"]
    assert D % 2 == 0, "head_dim must be even"
    dtype = dtype_of(case["dtype"])
    layout = case.get("layout", "contiguous")
    values = torch.randn(B, S, H, D, generator=gen)
    if layout == "qkv_slice":
        qkv = torch.randn(B, S, 3 * H, D, generator=gen)
        qkv[:, :, :H] = values
        q = qkv.to(dtype).to(device)[:, :, :H]
    elif layout == "heads_first":
        q = values.transpose(1, 2).contiguous().to(dtype).to(device).transpose(1, 2)
    else:
        q = values.to(dtype).to(device)
    cos, sin = rope_tables(int(case.get("table_len", S)), D)
    return q, cos.to(device), sin.to(device)


def reference(q, cos, sin):
    """out[..., :D/2] = q1 cos - q2 sin; out[..., D/2:] = q2 cos + q1 sin (float64)."""
    S, half = q.shape[1], q.shape[3] // 2
    x = q.to(torch.float64)
    c = cos[:S].to(torch.float64)[None, :, None, :]
    s = sin[:S].to(torch.float64)[None, :, None, :]
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)


def baseline(q, cos, sin):
    """The usual eager PyTorch code (HF Llama's apply_rotary_pos_emb)."""
    S, half = q.shape[1], q.shape[3] // 2
    c = torch.cat([cos[:S], cos[:S]], dim=-1)[None, :, None, :].to(q.dtype)
    s = torch.cat([sin[:S], sin[:S]], dim=-1)[None, :, None, :].to(q.dtype)
    rotated = torch.cat([-q[..., half:], q[..., :half]], dim=-1)
    return q * c + rotated * s


def bytes_moved(case):
    """Read q and write out (B*S*H*D each, q's dtype), read cos and sin for the S positions
    used (S * D/2 float32 each)."""
    B, S, H, D = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return 2 * B * S * H * D * itemsize + 2 * S * (D // 2) * 4


def flops(case):
    """Two multiplies and an add per output element: 3 * B*S*H*D."""
    B, S, H, D = case["shape"]
    return 3 * B * S * H * D
