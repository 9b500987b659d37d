"""Ring reduce-scatter from point-to-point messages: your solution (see the statement).

Runs on every rank at once: torch.distributed is initialised for you (gloo on CPU, NCCL on
GPUs); dist.get_rank() and dist.get_world_size() say who you are. Use dist.send / recv /
isend / irecv (or batch_isend_irecv); dist.reduce_scatter_tensor and the other collectives
are flagged.
Run it:  studio-drill run ring_reduce_scatter path/to/this_file.py --world-size 4
"""

import torch
import torch.distributed as dist


def ring_reduce_scatter(x: torch.Tensor) -> torch.Tensor:
    """Return chunk `rank` (along dim 0) of the element-wise sum of x over all ranks.

    x: float32 or bfloat16, 1-D or 2-D, the same shape on every rank, with world_size * c
    rows; return c rows, in x's dtype. Plan: cut x into world_size chunks; n-1 steps: send
    one partial sum to the right neighbour, receive one from the left and add it. Pick the
    indices so that the chunk you finish last is chunk `rank`.
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    raise NotImplementedError("ring_reduce_scatter: pass the partial sums around the ring")
