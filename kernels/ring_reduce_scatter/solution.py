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


def _exchange(send, right: int, recv, left: int) -> None:
    """Send `send` to rank `right` while receiving `recv` from rank `left`, as one batch.

    On NCCL a send waits for its receiver, and a send and a recv with the same peer run in
    the order they were posted on one stream: with two ranks (left == right) an isend
    followed by a recv deadlocks on the GPU as soon as the message is too large to be
    buffered. batch_isend_irecv posts both together (an NCCL group); gloo runs it too.
    """
    ops = []
    if send is not None and send.numel():
        ops.append(dist.P2POp(dist.isend, send, right))
    if recv is not None and recv.numel():
        ops.append(dist.P2POp(dist.irecv, recv, left))
    for work in dist.batch_isend_irecv(ops) if ops else []:
        work.wait()


def ring_reduce_scatter(x: torch.Tensor) -> torch.Tensor:
    rank, n = dist.get_rank(), dist.get_world_size()
    acc = x.to(torch.float32) if x.dtype != torch.float32 else x.clone()
    chunks = acc.chunk(n, dim=0)
    right, left = (rank + 1) % n, (rank - 1) % n
    inbox = torch.empty_like(chunks[0])
    for step in range(n - 1):
        _exchange(chunks[(rank - step - 1) % n].contiguous(), right, inbox, left)
        chunks[(rank - step - 2) % n].add_(inbox)
    return chunks[rank].to(x.dtype)
