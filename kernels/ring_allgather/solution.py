"""Reference solution: ring all-gather.

Slot r of the output holds rank r's shard. In step s rank r sends slot (r - s) mod n to
rank r+1 and receives slot (r - s - 1) mod n from rank r-1: after n-1 steps every slot is
filled. Each rank sends (n-1)/n of the gathered buffer, nccl-tests' busbw factor for
all-gather. Each step's send and recv are posted together (batch_isend_irecv), so no two
ranks wait on each other, on gloo or on NCCL.
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


def ring_allgather(x: torch.Tensor) -> torch.Tensor:
    rank, n = dist.get_rank(), dist.get_world_size()
    out = torch.empty((n * x.shape[0], *x.shape[1:]), dtype=x.dtype, device=x.device)
    slots = list(out.chunk(n, dim=0)) if x.shape[0] else [out] * n
    slots[rank].copy_(x)
    right, left = (rank + 1) % n, (rank - 1) % n
    for step in range(n - 1):
        _exchange(slots[(rank - step) % n], right, slots[(rank - step - 1) % n], left)
    return out
