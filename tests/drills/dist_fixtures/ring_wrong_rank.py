"""Correct on every rank but rank 2, which adds 1 to element 3 (the last one if shorter)."""

import torch.distributed as dist


def ring_allreduce(x):
    rank, n = dist.get_rank(), dist.get_world_size()
    mine, out = x.clone(), x.clone()
    for _ in range(1, n):                  # naive: pass every rank's x once around the ring
        inbox = mine.clone()
        work = dist.isend(mine, (rank + 1) % n)
        dist.recv(inbox, (rank - 1) % n)
        work.wait()
        out += inbox
        mine = inbox
    if rank == 2:
        out.view(-1)[min(3, out.numel() - 1)] += 1.0
    return out
