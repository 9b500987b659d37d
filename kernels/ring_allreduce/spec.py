"""Ring all-reduce: every rank holds x (same shape); each must end with the sum over ranks.

Read by the distributed judge (studio/drills/harness/dist.py) and, for `baseline`, by the
ranks of the library process group (which never import the solution).
"""

import torch


def _values(case, gen):
    x = torch.randn(case["shape"], generator=gen, dtype=torch.float64)
    if case.get("fill") == "large_offset":
        x = 1000.0 + x
    return x.to(getattr(torch, case["dtype"]))


def make_inputs(case, gen, world_size):
    """One (x,) per rank, each rank's values different."""
    return [(_values(case, gen),) for _ in range(world_size)]


def reference(case, inputs, world_size):
    """Every rank's answer: the float64 sum of the ranks' x."""
    total = sum(args[0].to(torch.float64) for args in inputs)
    return [total.clone() for _ in range(world_size)]


def baseline(x):
    """The library collective, run on every rank of the library process group."""
    import torch.distributed as dist

    dist.all_reduce(x)
    return x


def bytes_moved(case, world_size):
    """nccl-tests' S for all-reduce: the bytes of one rank's buffer."""
    n = 1
    for s in case["shape"]:
        n *= s
    return n * torch.empty((), dtype=getattr(torch, case["dtype"])).element_size()
