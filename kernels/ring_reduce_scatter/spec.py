"""Ring reduce-scatter: rank r holds x_r of n*c rows; it must return rows [r*c, (r+1)*c) of
the sum x_0 + ... + x_(n-1) (what dist.reduce_scatter_tensor returns on rank r).

Read by the distributed judge (studio/drills/harness/dist.py) and, for `baseline`, by the
ranks of the library process group (which never import the solution).
"""

import torch


def _values(case, gen, world_size):
    shape = [world_size * case["shape"][0], *case["shape"][1:]]
    x = torch.randn(shape, generator=gen, dtype=torch.float64)
    if case.get("fill") == "large_offset":
        x = 1000.0 + x
    return x.to(getattr(torch, case["dtype"]))


def make_inputs(case, gen, world_size):
    """One (x,) per rank, each rank's values different; x has world_size x shape[0] rows."""
    return [(_values(case, gen, world_size),) for _ in range(world_size)]


def reference(case, inputs, world_size):
    """Rank r's answer: chunk r (along dim 0) of the float64 sum of the ranks' x."""
    total = sum(args[0].to(torch.float64) for args in inputs)
    return [chunk.clone() for chunk in total.chunk(world_size, dim=0)]


_fallback_said = False


def baseline(x):
    """The library collective, run on every rank of the library process group.

    gloo gained reduce-scatter late (torch 2.13's gloo has it; older releases raise that it
    is unsupported). Where it is missing, this times dist.all_reduce and keeps this rank's
    chunk, the closest the backend offers, and says so on the console: that moves
    2(n-1)/n of the buffer, not (n-1)/n, so its busbw is not reduce-scatter's."""
    global _fallback_said
    import torch.distributed as dist

    n = dist.get_world_size()
    out = torch.empty((x.shape[0] // n, *x.shape[1:]), dtype=x.dtype, device=x.device)
    collective = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor
    try:
        collective(out, x)
    except (RuntimeError, NotImplementedError) as exc:
        if not _fallback_said:
            _fallback_said = True
            print(f"library baseline: this {dist.get_backend()} build has no reduce_scatter_tensor ({exc}); "
                  f"timing dist.all_reduce + this rank's chunk instead (NOT a reduce-scatter)", flush=True)
        dist.all_reduce(x)
        out.copy_(x.chunk(n, dim=0)[dist.get_rank()])
    return out


def bytes_moved(case, world_size):
    """nccl-tests' S for reduce-scatter: the whole input buffer (world_size chunks)."""
    n = world_size
    for s in case["shape"]:
        n *= s
    return n * torch.empty((), dtype=getattr(torch, case["dtype"])).element_size()
