"""Reference solution: ring attention (Liu et al., 2023) with an online-softmax merge.

Rank r keeps its queries and, for each of its rows, a running max m, a running sum l of
exp(score - m) and an accumulator acc of exp(score - m) @ V. The K/V blocks travel around
the ring: in step s rank r holds the block of rank (r - s) mod n. Before computing on it,
it posts the send of that block to rank r+1 and the receive of the next one from rank r-1,
so the transfer overlaps the block's matmuls. Merging a block: m' = max(m, rowmax(S)),
acc = acc * exp(m - m') + exp(S - m') @ V, l = l * exp(m - m') + rowsum(exp(S - m')).
The answer is acc / l.

Causal: positions are global (rank r's chunk starts at the sum of the earlier chunks'
lengths). Blocks from later ranks are entirely in the future and skipped (still passed
on); the own block gets the triangular mask; blocks from earlier ranks are fully visible.
The own block comes first, so every row has a finite max before any block is merged.
"""

import torch
import torch.distributed as dist


def ring_attention(q, k, v, seq_len, causal):
    rank, n = dist.get_rank(), dist.get_world_size()
    sizes = [len(c) for c in torch.tensor_split(torch.arange(seq_len), n)]
    starts = [sum(sizes[:j]) for j in range(n)]
    heads, rows, dim = q.shape
    qs = q.float() * dim ** -0.5
    m = torch.full((heads, rows), float("-inf"), device=q.device)
    l = torch.zeros(heads, rows, device=q.device)
    acc = torch.zeros(heads, rows, dim, device=q.device)
    q_pos = starts[rank] + torch.arange(rows, device=q.device)
    block, owner = torch.stack([k, v]), rank          # [2, H, S_owner, D], in the input dtype
    right, left = (rank + 1) % n, (rank - 1) % n
    for step in range(n):
        works, incoming = [], None
        if step < n - 1:
            incoming = torch.empty((2, heads, sizes[(owner - 1) % n], dim), dtype=k.dtype, device=k.device)
            # One batch (an NCCL group): a separate isend and irecv with the same peer
            # deadlock on NCCL with two ranks, where left == right.
            works = dist.batch_isend_irecv([dist.P2POp(dist.isend, block, right),
                                            dist.P2POp(dist.irecv, incoming, left)])
        if not causal or owner <= rank:
            scores = qs @ block[0].float().transpose(-1, -2)
            if causal and owner == rank:
                k_pos = starts[owner] + torch.arange(block.shape[2], device=q.device)
                scores.masked_fill_(k_pos[None, :] > q_pos[:, None], float("-inf"))
            m_new = torch.maximum(m, scores.amax(dim=-1))
            alpha = torch.exp(m - m_new)
            p = torch.exp(scores - m_new[..., None])
            l = l * alpha + p.sum(dim=-1)
            acc = acc * alpha[..., None] + p @ block[1].float()
            m = m_new
        for work in works:
            work.wait()
        if incoming is not None:
            block, owner = incoming, (owner - 1) % n
    return (acc / l[..., None]).to(q.dtype)
