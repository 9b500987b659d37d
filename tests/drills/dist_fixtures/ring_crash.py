"""Rank 1 dies at once (os._exit), the others wait for its message."""

import os

import torch.distributed as dist


def ring_allreduce(x):
    rank, n = dist.get_rank(), dist.get_world_size()
    if rank == 1:
        os._exit(7)
    inbox = x.clone()
    dist.recv(inbox, 1 if rank != 1 else 0)
    return x + inbox
