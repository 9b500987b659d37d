"""Reference solution: the bandwidth-optimal ring all-reduce (Patarasuk & Yuan, 2009).

x is cut into n chunks. Reduce-scatter: in step s every rank sends chunk (r - s) mod n to
rank r+1 and adds the chunk (r - s - 1) mod n it receives from rank r-1; after n-1 steps
rank r owns the full sum of chunk (r + 1) mod n. All-gather: n-1 more steps pass the
finished chunks around the ring. Each rank sends 2(n-1)/n of its buffer: that factor is
why nccl-tests reports busbw = algbw x 2(n-1)/n for all-reduce.

Each step's send and recv are posted together (batch_isend_irecv): on NCCL a send waits
for its receiver, so a send posted before the recv deadlocks once messages are too large
to be buffered (seen on two H100s at 64 MB). bf16 input is accumulated
in float32 and rounded once at the end.
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


def ring_allreduce(x: torch.Tensor) -> torch.Tensor:
    rank, n = dist.get_rank(), dist.get_world_size()
    acc = x.reshape(-1).to(torch.float32) if x.dtype != torch.float32 else x.reshape(-1).clone()
    chunks = list(torch.tensor_split(acc, n))
    right, left = (rank + 1) % n, (rank - 1) % n
    inbox = torch.empty(max(c.numel() for c in chunks), dtype=acc.dtype, device=acc.device)

    def exchange(send_index: int, recv_index: int) -> torch.Tensor | None:
        into = chunks[recv_index]
        got = inbox[: into.numel()] if into.numel() else None
        _exchange(chunks[send_index], right, got, left)
        return got

    for step in range(n - 1):                       # reduce-scatter
        recv_index = (rank - step - 1) % n
        got = exchange((rank - step) % n, recv_index)
        if got is not None:
            chunks[recv_index].add_(got)
    for step in range(n - 1):                       # all-gather
        recv_index = (rank - step) % n
        got = exchange((rank + 1 - step) % n, recv_index)
        if got is not None:
            chunks[recv_index].copy_(got)
    x.view(-1).copy_(acc)
    return x
