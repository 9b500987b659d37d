"""Bad MoE dispatch: tokens grouped by destination rank but not sorted by expert within it
(right tokens, right rank, wrong order once a rank holds two experts or more)."""

import torch
import torch.distributed as dist


def moe_all_to_all(x, expert, num_experts):
    rank, n = dist.get_rank(), dist.get_world_size()
    k = num_experts // n
    order = torch.sort(expert // k, stable=True).indices     # the pitfall: by rank, not by expert
    xs, es = x[order], expert[order]
    send_counts = torch.bincount(es // k, minlength=n)
    recv_counts = torch.zeros_like(send_counts)
    recv_counts[rank] = send_counts[rank]
    ops = []
    for j in range(n):
        if j != rank:
            ops += [dist.P2POp(dist.isend, send_counts[j:j + 1].clone(), j),
                    dist.P2POp(dist.irecv, recv_counts[j:j + 1], j)]
    for work in dist.batch_isend_irecv(ops):
        work.wait()
    send, recv = send_counts.tolist(), recv_counts.tolist()
    send_at = [sum(send[:j]) for j in range(n)]
    recv_at = [sum(recv[:j]) for j in range(n)]
    tokens = x.new_empty((sum(recv), x.shape[1]))
    experts = expert.new_empty((sum(recv),))
    ops = []
    for j in range(n):
        if j == rank:
            tokens[recv_at[j]:recv_at[j] + recv[j]] = xs[send_at[j]:send_at[j] + send[j]]
            experts[recv_at[j]:recv_at[j] + recv[j]] = es[send_at[j]:send_at[j] + send[j]]
            continue
        if send[j]:
            ops += [dist.P2POp(dist.isend, xs[send_at[j]:send_at[j] + send[j]], j),
                    dist.P2POp(dist.isend, es[send_at[j]:send_at[j] + send[j]], j)]
        if recv[j]:
            ops += [dist.P2POp(dist.irecv, tokens[recv_at[j]:recv_at[j] + recv[j]], j),
                    dist.P2POp(dist.irecv, experts[recv_at[j]:recv_at[j] + recv[j]], j)]
    if ops:
        for work in dist.batch_isend_irecv(ops):
            work.wait()
    return tokens, experts
