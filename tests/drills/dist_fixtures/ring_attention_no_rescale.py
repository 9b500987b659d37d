"""Ring attention whose online-softmax merge forgets to rescale: when a later block raises a
row's max, the running sum and accumulator of the earlier blocks are not multiplied by
exp(m_old - m_new). Right with one block (and on rank 0 of a causal run), wrong elsewhere."""

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
            works = [dist.isend(block, right), dist.irecv(incoming, left)]
        if not causal or owner <= rank:
            scores = qs @ block[0].float().transpose(-1, -2)
            if causal and owner == rank:
                k_pos = starts[owner] + torch.arange(block.shape[2], device=q.device)
                scores.masked_fill_(k_pos[None, :] > q_pos[:, None], float("-inf"))
            m_new = torch.maximum(m, scores.amax(dim=-1))
            p = torch.exp(scores - m_new[..., None])
            l = l + p.sum(dim=-1)                    # the pitfall: the old sums keep their old max
            acc = acc + p @ block[1].float()
            m = m_new
        for work in works:
            work.wait()
        if incoming is not None:
            block, owner = incoming, (owner - 1) % n
    return (acc / l[..., None]).to(q.dtype)
