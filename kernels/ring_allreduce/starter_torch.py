"""Ring all-reduce from point-to-point messages: your solution (see the statement).

Runs on every rank at once: torch.distributed is initialised for you (gloo on CPU, NCCL on
GPUs); dist.get_rank() and dist.get_world_size() say who you are. Use dist.send / recv /
isend / irecv (or batch_isend_irecv); dist.all_reduce and the other collectives are flagged.
Run it:  studio-drill run ring_allreduce path/to/this_file.py --world-size 4
"""

import torch
import torch.distributed as dist


def ring_allreduce(x: torch.Tensor) -> torch.Tensor:
    """Return the element-wise sum of x over all ranks (every rank gets the same answer).

    x: 1-D tensor (float32 or bfloat16), the same shape on every rank, any length (also
    shorter than the number of ranks). You may reduce in place into x and return it.
    Plan: split x into world_size chunks; reduce-scatter around the ring (n-1 steps: send
    one chunk to the right, receive one from the left and add), then all-gather (n-1 steps).
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    raise NotImplementedError("ring_allreduce: write the reduce-scatter and all-gather phases")
