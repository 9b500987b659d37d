"""Ring all-gather from point-to-point messages: your solution (see the statement).

Runs on every rank at once; torch.distributed is initialised for you. Use dist.send / recv /
isend / irecv; dist.all_gather and the other collectives are flagged.
Run it:  studio-drill run ring_allgather path/to/this_file.py --world-size 4
"""

import torch
import torch.distributed as dist


def ring_allgather(x: torch.Tensor) -> torch.Tensor:
    """Return torch.cat of every rank's x along dim 0, in rank order (the same on every rank).

    x: this rank's shard (float32 or bfloat16, 1-D or 2-D), the same shape on every rank.
    Plan: allocate the output, put x in slot `rank`, then n-1 steps: send the slot you got
    last to the right neighbour and receive the next one from the left.
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    raise NotImplementedError("ring_allgather: pass the shards around the ring")
