"""Reference solution: per-row cross-entropy over a large vocabulary, online logsumexp.

loss_i = logsumexp_j(x_ij) - x_i,t_i, and 0 for rows whose target is ignore_index.

Bytes model: the logits are read once (rows * vocab * itemsize); targets and losses are
noise next to them. A vocabulary of 32k-256k logits does not fit in one program's
registers, so each program streams its row in BLOCK_V chunks and keeps an *online*
logsumexp (Milakov & Gimelshein, "Online normalizer calculation for softmax"): a running
max m and per-lane sums s of exp(x - m), rescaled by exp(m_old - m_new) whenever the
max grows. One pass, the logits read once, no overflow however large they are.

Three details decide whether it runs at copy bandwidth in bf16 (2 bytes per logit):

- **One exp per logit.** With a per-lane running max every element pays two exps (the
  rescale and its own term). Here the chunk's max is reduced first, so m is one scalar:
  the rescale is a single exp per chunk and each logit costs one FMA + one exp2 (with
  log2(e) folded into the FMA). exp is a special-function-unit op with a quarter of the
  FMA throughput; at ~6 logits per clock per SM two of them per logit do not fit.
- **16-byte loads on odd vocabularies.** At V = 50257 (GPT-2) a row starts at an odd
  element, so the compiler cannot prove any load is 16-byte aligned and issues 2-byte
  loads: 8x the load instructions. The row is split into a short head up to the first
  16-byte boundary, an aligned body (`tl.multiple_of` tells the compiler so, and its
  last chunk's mask ends on an aligned element), and a short tail: the body is all
  128-bit loads. (nanoGPT pads the vocabulary to 50304 for the same reason.)
- **Masked lanes load -inf**, and while the running max is still -inf (every logit so far
  -inf) the exps are taken against 0 instead, so -inf - -inf never makes a NaN.

The target logit is a single scalar load, skipped for ignored rows. The loss is written
in float32 whatever the logits' dtype. Launch shapes: bench/catalogue_tuning.py on an H100; for
2-byte logits, bench/launch_tuning.py on an H200 (LAUNCH_2BYTE).
"""

import torch
import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def _fold(m, s, x):
    """Fold chunk x (-inf where masked) into the scalar max m and per-lane sums s."""
    m_new = tl.maximum(m, tl.max(x, axis=0))
    m_ref = tl.where(m_new == -float("inf"), 0.0, m_new)
    s = s * tl.exp2((m - m_ref) * 1.4426950408889634) + tl.exp2(x * 1.4426950408889634
                                                                - m_ref * 1.4426950408889634)
    return m_new, s


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_m, stride_v,
                         ignore_index, BLOCK_V: tl.constexpr, ALIGN: tl.constexpr,
                         CONTIG: tl.constexpr, STAGES: tl.constexpr = 1):
    tl.static_assert(BLOCK_V >= ALIGN)         # so full chunks end on aligned elements
    row = tl.program_id(0).to(tl.int64)
    base = row * stride_m                      # element offset of the row
    lanes = tl.arange(0, BLOCK_V)
    m = tl.max(tl.full([BLOCK_V], -float("inf"), tl.float32), axis=0)
    s = tl.zeros([BLOCK_V], tl.float32)
    if CONTIG:
        head = tl.minimum((ALIGN - base % ALIGN) % ALIGN, V)    # up to the 16-byte boundary
        body = tl.multiple_of(base + head, ALIGN)
        n_body = V - head
        n_full = (n_body // BLOCK_V) * BLOCK_V
        for start in tl.range(0, n_full, BLOCK_V, num_stages=STAGES):   # full chunks: no mask at all
            x = tl.load(logits_ptr + body + start + lanes).to(tl.float32)
            m, s = _fold(m, s, x)
        n_aligned = (n_body // ALIGN) * ALIGN
        offs = n_full + lanes                                   # last chunk, mask ends aligned
        x = tl.load(logits_ptr + body + offs, mask=offs < n_aligned,
                    other=-float("inf")).to(tl.float32)
        m, s = _fold(m, s, x)
        # head [0, head) and tail [head + n_aligned, V): fewer than ALIGN logits each
        edge = tl.arange(0, 2 * ALIGN)
        col = tl.where(edge < ALIGN, edge, head + n_aligned + edge - ALIGN)
        keep_edge = tl.where(edge < ALIGN, edge < head, col < V)
        xe = tl.load(logits_ptr + base + col, mask=keep_edge, other=-float("inf")).to(tl.float32)
    else:                                                       # strided columns
        for start in range(0, V, BLOCK_V):
            cols = start + lanes
            x = tl.load(logits_ptr + base + cols * stride_v, mask=cols < V,
                        other=-float("inf")).to(tl.float32)
            m, s = _fold(m, s, x)
        xe = tl.full([2 * ALIGN], -float("inf"), tl.float32)
    m_all = tl.maximum(m, tl.max(xe, axis=0))
    m_ref = tl.where(m_all == -float("inf"), 0.0, m_all)
    total = (tl.sum(s, axis=0) * tl.exp2((m - m_ref) * 1.4426950408889634)
             + tl.sum(tl.exp2((xe - m_ref) * 1.4426950408889634), axis=0))
    lse = m_ref + tl.log2(total) * 0.6931471805599453
    target = tl.load(target_ptr + row)
    keep = target != ignore_index
    x_t = tl.load(logits_ptr + base + target * stride_v, mask=keep, other=0.0).to(tl.float32)
    tl.store(loss_ptr + row, tl.where(keep, lse - x_t, 0.0))


# (largest V, BLOCK_V cap, num_warps), from the H100 sweep: 4 warps over 4096-logit chunks
# for GPT/Llama-2-sized vocabularies, 8 warps over 8192 for the 128k-256k ones.
LAUNCH = [(65536, 4096, 4), (None, 8192, 8)]
# 2-byte logits on the H200 (bench/launch_tuning.py --what cross_entropy, call 62): the chunk loop
# software-pipelined 3 deep (tl.range num_stages: the next two chunks load by cp.async while one is
# folded) and 4 warps, 4096 x 32000 bf16 68.5 us against 74.6, 4096 x 128256 245 against 281.
# Nsight Compute had shown DRAM 75% busy with 35% of warps resident (80 registers a thread), the warps
# waiting on their loads (call 61). float32 keeps LAUNCH (3 stages of 8192 float32 logits would take
# 64 KiB of shared memory a program; not timed).
LAUNCH_2BYTE = [(65536, 4096, 4, 3), (None, 8192, 4, 3)]


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100) -> torch.Tensor:
    """Per-row loss (rows,) float32: logsumexp(logits[i]) - logits[i, target[i]], 0 if ignored."""
    assert logits.ndim == 2 and target.shape == (logits.shape[0],)
    M, V = logits.shape
    loss = torch.empty((M,), dtype=torch.float32, device=logits.device)
    if logits.element_size() == 2:
        cap, warps, stages = next((c, w, st) for top, c, w, st in LAUNCH_2BYTE if top is None or V <= top)
    else:
        cap, warps = next((c, w) for top, c, w in LAUNCH if top is None or V <= top)
        stages = 1
    align = max(1, 16 // logits.element_size())       # elements per 16 bytes
    block_v = max(min(triton.next_power_of_2(V), cap), align)
    cross_entropy_kernel[(M,)](logits, target, loss, V, logits.stride(0), logits.stride(1),
                               ignore_index, BLOCK_V=block_v, ALIGN=align,
                               CONTIG=logits.stride(1) == 1, STAGES=stages,
                               num_warps=warps if block_v >= 2048 else 4)
    return loss


if __name__ == "__main__":
    x = torch.randn(4096, 50257, device="cuda", dtype=torch.bfloat16)
    t = torch.randint(0, x.shape[1], (x.shape[0],), device="cuda")
    ref = torch.nn.functional.cross_entropy(x.float(), t, reduction="none")
    torch.testing.assert_close(cross_entropy(x, t), ref, atol=1e-4, rtol=1e-5)
    ms = triton.testing.do_bench(lambda: cross_entropy(x, t))
    print(f"{x.numel() * x.element_size() / ms * 1e-6:.0f} GB/s")
