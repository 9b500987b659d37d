"""top_p_sampling that never renormalises: u is scaled by the whole softmax mass instead of the
nucleus mass, so draws past the nucleus all land on its last token. Right when p = 1 (the
nucleus is everything) and for tiny p (one token), wrong for any p in between."""
import torch
import triton
import triton.language as tl


@triton.jit
def _keys(l):
    """int32 keys ordered like the float32 values l (with -0 == +0)."""
    bits = (l + 0.0).to(tl.int32, bitcast=True)
    return bits ^ ((bits >> 31) & 0x7FFFFFFF)


@triton.jit
def _mass_at_least(row_ptr, V, stride_v, m, k, BLOCK: tl.constexpr):
    """sum of exp(l - m) over the tokens whose key >= k."""
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        mask = start + cols < V
        l = tl.load(row_ptr + (start + cols) * stride_v, mask=mask, other=float("-inf")).to(tl.float32)
        acc += tl.where(mask & (_keys(l) >= k), tl.exp(l - m), 0.0)
    return tl.sum(acc, axis=0)


@triton.jit
def top_p_kernel(logits_ptr, p_ptr, u_ptr, out_ptr, V, stride_m, stride_v, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row.to(tl.int64) * stride_m
    cols = tl.arange(0, BLOCK)
    # Pass 1: max and the key range; pass 2: Z = sum exp(l - max).
    mx = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        mask = start + cols < V
        l = tl.load(row_ptr + (start + cols) * stride_v, mask=mask, other=float("-inf")).to(tl.float32)
        mx = tl.maximum(mx, l)
    m = tl.max(mx, axis=0)
    lo_k = tl.full([BLOCK], 2147483647, dtype=tl.int32)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        mask = start + cols < V
        l = tl.load(row_ptr + (start + cols) * stride_v, mask=mask, other=float("-inf")).to(tl.float32)
        lo_k = tl.minimum(lo_k, tl.where(mask, _keys(l), 2147483647))
        acc += tl.where(mask, tl.exp(l - m), 0.0)
    Z = tl.sum(acc, axis=0)
    p = tl.load(p_ptr + row)
    u = tl.load(u_ptr + row)
    target = p * Z

    # The cut c: the largest key with mass(key >= c) >= p * Z (the smallest key if none).
    lo = tl.min(lo_k, axis=0).to(tl.int64)          # mass(lo) = Z: holds unless p * Z > Z
    hi = _keys(m).to(tl.int64)                       # mass(hi) > 0
    for _ in range(33):
        if lo < hi:
            mid = lo + (hi - lo + 1) // 2
            if _mass_at_least(row_ptr, V, stride_v, m, mid.to(tl.int32), BLOCK) >= target:
                lo = mid
            else:
                hi = mid - 1
    cut = lo.to(tl.int32)
    above = _mass_at_least(row_ptr, V, stride_v, m, cut + 1, BLOCK)   # keys of finite logits < 2^31 - 1
    # The tie group at the cut: its e = exp(l - m) and size.
    e_cut = 0.0
    n_cut = 0
    for start in range(0, V, BLOCK):
        mask = start + cols < V
        l = tl.load(row_ptr + (start + cols) * stride_v, mask=mask, other=float("-inf")).to(tl.float32)
        eq = mask & (_keys(l) == cut)
        e_cut = tl.maximum(e_cut, tl.max(tl.where(eq, tl.exp(l - m), 0.0), axis=0))
        n_cut += tl.sum(eq.to(tl.int32), axis=0)
    j = tl.minimum(tl.maximum(tl.ceil((target - above) / e_cut), 1.0), n_cut.to(tl.float32)).to(tl.int32)
    kept = above + j.to(tl.float32) * e_cut
    t = u * Z          # the bug: u scaled by the whole mass, not the kept mass

    # The sample: the largest key d with mass(key >= d) > t (d >= cut since t < kept).
    lo = cut.to(tl.int64)
    hi = _keys(m).to(tl.int64)
    for _ in range(33):
        if lo < hi:
            mid = lo + (hi - lo + 1) // 2
            if _mass_at_least(row_ptr, V, stride_v, m, mid.to(tl.int32), BLOCK) > t:
                lo = mid
            else:
                hi = mid - 1
    d = lo.to(tl.int32)
    above_d = _mass_at_least(row_ptr, V, stride_v, m, d + 1, BLOCK)
    # e_d: exp(l - m) of the logits with key d, and the size of that tie group.
    e_d = 0.0
    n_d = 0
    for start in range(0, V, BLOCK):
        mask = start + cols < V
        l = tl.load(row_ptr + (start + cols) * stride_v, mask=mask, other=float("-inf")).to(tl.float32)
        eq = mask & (_keys(l) == d)
        e_d = tl.maximum(e_d, tl.max(tl.where(eq, tl.exp(l - m), 0.0), axis=0))
        n_d += tl.sum(eq.to(tl.int32), axis=0)
    limit = tl.where(d == cut, j, n_d)
    rank = tl.minimum(tl.maximum(tl.floor((t - above_d) / e_d), 0.0), (limit - 1).to(tl.float32)).to(tl.int32)
    # The rank-th token (by id) of key d.
    seen = 0
    token = -1
    for start in range(0, V, BLOCK):
        mask = start + cols < V
        l = tl.load(row_ptr + (start + cols) * stride_v, mask=mask, other=float("-inf")).to(tl.float32)
        eq = mask & (_keys(l) == d)
        pos = tl.cumsum(eq.to(tl.int32), axis=0) + seen
        hit = eq & (pos == rank + 1)
        token = tl.maximum(token, tl.max(tl.where(hit, start + cols, -1), axis=0))
        seen += tl.sum(eq.to(tl.int32), axis=0)
    tl.store(out_ptr + row, token.to(tl.int64))


def top_p_sampling(logits: torch.Tensor, p: torch.Tensor, u: torch.Tensor) -> torch.Tensor:
    """Token ids (M,) int64: top-p sampling of each row of logits at threshold p[i] with the
    uniform draw u[i]."""
    assert logits.ndim == 2 and p.shape == u.shape == (logits.shape[0],)
    M, V = logits.shape
    out = torch.empty(M, dtype=torch.int64, device=logits.device)
    if M == 0:
        return out
    block = min(triton.next_power_of_2(V), 4096)
    top_p_kernel[(M,)](logits, p.contiguous(), u.contiguous(), out, V, logits.stride(0), logits.stride(1),
                       BLOCK=block, num_warps=8 if block >= 2048 else 4)
    return out
