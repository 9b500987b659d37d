"""Reference solution: MoE token dispatch from point-to-point messages.

1. Permute: a stable sort of the local tokens by expert id; experts e..e+k-1 live on one
   rank, so the sorted tokens are already grouped by destination rank, and
   send_counts[j] = how many go to rank j.
2. Counts: every rank tells every other rank how many tokens it will send (one int64 each
   way per pair). Only then does a rank know how much it receives, from whom, and so the
   size of its output.
3. Tokens: post every isend and irecv at once (batch_isend_irecv) and wait for them all,
   so no pair waits on another; the expert ids travel beside the tokens. The slice for this
   rank itself is a local copy. Empty slices are not sent (both sides know the counts).

Received slices are laid out by source rank, each already sorted by expert: the order of
dist.all_to_all_single with split sizes.
"""

import torch
import torch.distributed as dist


def _exchange(pairs):
    """pairs: [(op, tensor, peer)]; every op posted at once, then every one waited for."""
    ops = [dist.P2POp(op, tensor, peer) for op, tensor, peer in pairs if tensor.numel()]
    if ops:
        for work in dist.batch_isend_irecv(ops):
            work.wait()


def moe_all_to_all(x: torch.Tensor, expert: torch.Tensor, num_experts: int):
    rank, n = dist.get_rank(), dist.get_world_size()
    k = num_experts // n
    order = torch.sort(expert, stable=True).indices
    xs, es = x[order], expert[order]
    send_counts = torch.bincount(es // k, minlength=n).to(torch.int64)
    recv_counts = torch.zeros_like(send_counts)
    recv_counts[rank] = send_counts[rank]
    peers = [j for j in range(n) if j != rank]
    _exchange([(dist.isend, send_counts[j:j + 1].clone(), j) for j in peers]
              + [(dist.irecv, recv_counts[j:j + 1], j) for j in peers])
    # _exchange received into views of recv_counts: read it only now
    send, recv = send_counts.tolist(), recv_counts.tolist()
    send_at = [sum(send[:j]) for j in range(n)]
    recv_at = [sum(recv[:j]) for j in range(n)]
    tokens = x.new_empty((sum(recv), x.shape[1]))
    experts = expert.new_empty((sum(recv),))
    tokens[recv_at[rank]:recv_at[rank] + recv[rank]] = xs[send_at[rank]:send_at[rank] + send[rank]]
    experts[recv_at[rank]:recv_at[rank] + recv[rank]] = es[send_at[rank]:send_at[rank] + send[rank]]
    pairs = []
    for j in peers:
        pairs += [(dist.isend, xs[send_at[j]:send_at[j] + send[j]], j),
                  (dist.isend, es[send_at[j]:send_at[j] + send[j]], j),
                  (dist.irecv, tokens[recv_at[j]:recv_at[j] + recv[j]], j),
                  (dist.irecv, experts[recv_at[j]:recv_at[j] + recv[j]], j)]
    _exchange(pairs)
    return tokens, experts
