"""The answer from the library collective: right values, flagged as calling the reference."""

import torch.distributed as dist


def ring_allreduce(x):
    dist.all_reduce(x)
    return x
