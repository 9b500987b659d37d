"""Rank 1 raises before sending; the other ranks wait for it."""

import torch.distributed as dist


def ring_allreduce(x):
    rank = dist.get_rank()
    if rank == 1:
        raise ValueError("rank one gave up")
    inbox = x.clone()
    dist.recv(inbox, 1)
    return x + inbox
