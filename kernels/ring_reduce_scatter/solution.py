"""Reference solution: ring reduce-scatter (the first half of the ring all-reduce).

x is cut into n chunks along dim 0. In step s rank r sends its partial sum of chunk
(r - s - 1) mod n to rank r+1 and adds the partial sum of chunk (r - s - 2) mod n it
receives from rank r-1. After n-1 steps the chunk it last received and added is chunk
r, complete: the chunk dist.reduce_scatter_tensor leaves on rank r. Each rank sends
(n-1)/n of its input, nccl-tests' busbw factor for reduce-scatter.

The send is posted (isend) before the recv, so no two ranks wait on each other. bf16 is
accumulated in float32 and rounded once at the end.
"""

import torch
import torch.distributed as dist


def ring_reduce_scatter(x: torch.Tensor) -> torch.Tensor:
    rank, n = dist.get_rank(), dist.get_world_size()
    acc = x.to(torch.float32) if x.dtype != torch.float32 else x.clone()
    chunks = acc.chunk(n, dim=0)
    right, left = (rank + 1) % n, (rank - 1) % n
    inbox = torch.empty_like(chunks[0])
    for step in range(n - 1):
        work = dist.isend(chunks[(rank - step - 1) % n].contiguous(), right)
        dist.recv(inbox, left)
        chunks[(rank - step - 2) % n].add_(inbox)
        work.wait()
    return chunks[rank].to(x.dtype)
