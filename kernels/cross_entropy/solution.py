"""Reference solution: per-row cross-entropy over a large vocabulary, online logsumexp.

loss_i = logsumexp_j(x_ij) - x_i,t_i, and 0 for rows whose target is ignore_index.

Bytes model: the logits are read once (rows * vocab * itemsize); targets and losses are
noise next to them. ~4 flops per logit: memory-bound (~2 flop/byte in bf16). A vocabulary
of 32k-256k floats does not fit in one program's registers, so each program streams its
row in BLOCK_V chunks and keeps an *online* logsumexp: a per-lane running max m and a
running sum s of exp(x - m), rescaled by exp(m_old - m_new) whenever the max grows
(Milakov & Gimelshein, "Online normalizer calculation for softmax"). One pass, x read
once, and no overflow however large the logits are. exp2/log2 with a log2(e) scale map
to the fast hardware instructions.

Masked lanes load -inf; a lane that has only seen -inf keeps s = 0 (the `where` avoids
-inf - -inf = NaN). The target logit is a single scalar load, skipped for ignored rows.
The loss row is written in float32 whatever the logits' dtype.

One program per row: at 128k vocab that is 128 KiB to 512 KiB per program, plenty to keep
an H100 SM streaming; BLOCK_V = 4096 with 8 warps (16 elements per thread per chunk).
"""

import os

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"
LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_m, stride_v,
                         ignore_index, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    row_ptr = logits_ptr + row * stride_m
    m = tl.full([BLOCK_V], -float("inf"), tl.float32)   # running max, per lane (log2 units)
    s = tl.zeros([BLOCK_V], tl.float32)                  # running sum of 2^(x - m)
    for start in range(0, V, BLOCK_V):
        cols = start + tl.arange(0, BLOCK_V)
        x = tl.load(row_ptr + cols * stride_v, mask=cols < V, other=-float("inf"),
                    eviction_policy="evict_first").to(tl.float32) * 1.4426950408889634
        m_new = tl.maximum(m, x)
        seen = m_new > -float("inf")
        s = tl.where(seen, s * tl.exp2(m - m_new) + tl.exp2(x - m_new), 0.0)
        m = m_new
    m_row = tl.max(m, axis=0)
    lse = (m_row + tl.log2(tl.sum(s * tl.exp2(m - m_row), axis=0))) * 0.6931471805599453
    target = tl.load(target_ptr + row)
    keep = target != ignore_index
    x_t = tl.load(row_ptr + target * stride_v, mask=keep, other=0.0).to(tl.float32)
    tl.store(loss_ptr + row, tl.where(keep, lse - x_t, 0.0))


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100) -> torch.Tensor:
    """Per-row loss (rows,) float32: logsumexp(logits[i]) - logits[i, target[i]], 0 if ignored."""
    assert logits.ndim == 2 and target.shape == (logits.shape[0],)
    M, V = logits.shape
    loss = torch.empty((M,), dtype=torch.float32, device=logits.device)
    block_v = min(triton.next_power_of_2(V), 4096 if not INTERPRET else 8192)
    cross_entropy_kernel[(M,)](logits, target, loss, V, logits.stride(0), logits.stride(1),
                               ignore_index, BLOCK_V=block_v, num_warps=8 if block_v >= 2048 else 4)
    return loss


if __name__ == "__main__":
    x = torch.randn(4096, 128256, device="cuda", dtype=torch.bfloat16)
    t = torch.randint(0, x.shape[1], (x.shape[0],), device="cuda")
    ref = torch.nn.functional.cross_entropy(x.float(), t, reduction="none")
    torch.testing.assert_close(cross_entropy(x, t), ref, atol=1e-4, rtol=1e-5)
    ms = triton.testing.do_bench(lambda: cross_entropy(x, t))
    print(f"{x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
