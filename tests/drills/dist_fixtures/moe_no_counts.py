"""Bad MoE dispatch: no count exchange; it assumes it receives from each rank as many tokens
as it sends there (true only for symmetric routing)."""

import torch
import torch.distributed as dist


def moe_all_to_all(x, expert, num_experts):
    rank, n = dist.get_rank(), dist.get_world_size()
    k = num_experts // n
    order = torch.sort(expert, stable=True).indices
    xs, es = x[order], expert[order]
    send = torch.bincount(es // k, minlength=n).tolist()
    recv = list(send)                                   # the pitfall
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
