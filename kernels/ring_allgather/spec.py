"""Ring all-gather: rank r holds shard x_r; every rank must return cat([x_0, ..., x_(n-1)], dim 0)."""

import torch


def make_inputs(case, gen, world_size):
    dtype = getattr(torch, case["dtype"])
    return [(torch.randn(case["shape"], generator=gen, dtype=torch.float64).to(dtype),)
            for _ in range(world_size)]


def reference(case, inputs, world_size):
    gathered = torch.cat([args[0].to(torch.float64) for args in inputs], dim=0)
    return [gathered.clone() for _ in range(world_size)]


def baseline(x):
    import torch.distributed as dist

    parts = [torch.empty_like(x) for _ in range(dist.get_world_size())]
    dist.all_gather(parts, x)
    return torch.cat(parts, dim=0)


def bytes_moved(case, world_size):
    """nccl-tests' S for all-gather: the whole gathered buffer (world_size shards)."""
    n = world_size
    for s in case["shape"]:
        n *= s
    return n * torch.empty((), dtype=getattr(torch, case["dtype"])).element_size()
