"""MoE token dispatch: rank r holds tokens x_r [T_r, d] and the expert of each, expert_r [T_r]
(int64, 0 <= e < num_experts); expert e lives on rank e // k, k = num_experts / world size.

Rank r must return (tokens, experts): every token routed to one of its experts, ordered by
source rank, then, within one source, by expert id, then by the token's position (a stable
sort), and the expert id of each. This is what Megatron-style dispatch gives: each rank
permutes its tokens by expert (a stable sort), then all_to_all_single with the per-rank
counts as split sizes.

Read by the distributed judge (studio/drills/harness/dist.py) and, for `baseline`, by the
ranks of the library process group (which never import the solution).
"""

import torch

ROUTINGS = ("random", "to_rank0", "rank1_empty", "uneven", "local")


def _tokens(case, rank):
    tokens = case["shape"][0]
    routing = case.get("routing", "random")
    if routing == "rank1_empty" and rank == 1:
        return 0
    if routing == "uneven":
        return tokens * (rank + 1)
    return tokens


def make_inputs(case, gen, world_size):
    """(x, expert, num_experts) per rank."""
    d = case["shape"][1]
    k = int(case.get("experts_per_rank", 2))     # the bench's cases name none: 2
    num_experts = k * world_size
    routing = case.get("routing", "random")
    if routing not in ROUTINGS:
        raise ValueError(f"unknown routing {routing!r}")
    inputs = []
    for r in range(world_size):
        t = _tokens(case, r)
        x = torch.randn(t, d, generator=gen, dtype=torch.float64).to(getattr(torch, case["dtype"]))
        if routing == "to_rank0":
            expert = torch.randint(0, k, (t,), generator=gen)
        elif routing == "local":
            expert = torch.randint(r * k, (r + 1) * k, (t,), generator=gen)
        else:
            expert = torch.randint(0, num_experts, (t,), generator=gen)
        inputs.append((x, expert.to(torch.int64), num_experts))
    return inputs


def reference(case, inputs, world_size):
    """One process: each source's tokens stably sorted by expert, cut by destination rank,
    concatenated per destination in source order."""
    k = inputs[0][2] // world_size
    d = case["shape"][1]
    out_x = [[] for _ in range(world_size)]
    out_e = [[] for _ in range(world_size)]
    for x, expert, _ in inputs:
        order = torch.sort(expert, stable=True).indices
        xs, es = x[order].to(torch.float64), expert[order]
        for dst in range(world_size):
            keep = (es // k) == dst
            out_x[dst].append(xs[keep])
            out_e[dst].append(es[keep])
    return [(torch.cat(out_x[r]).reshape(-1, d), torch.cat(out_e[r])) for r in range(world_size)]


def output_dtypes(case):
    return [getattr(torch, case["dtype"]), torch.int64]


def baseline(x, expert, num_experts):
    """The library path, run on every rank of the library process group: the same stable
    sort, the counts through all_to_all_single, then tokens and expert ids through
    all_to_all_single with the counts as split sizes."""
    import torch.distributed as dist

    n = dist.get_world_size()
    k = num_experts // n
    order = torch.sort(expert, stable=True).indices
    xs, es = x[order], expert[order]
    send_counts = torch.bincount(es // k, minlength=n)
    recv_counts = torch.empty_like(send_counts)
    dist.all_to_all_single(recv_counts, send_counts)
    send, recv = send_counts.tolist(), recv_counts.tolist()
    tokens = x.new_empty((sum(recv), x.shape[1]))
    experts = expert.new_empty((sum(recv),))
    dist.all_to_all_single(tokens, xs, recv, send)
    dist.all_to_all_single(experts, es, recv, send)
    return tokens, experts


def bytes_moved(case, world_size):
    """nccl-tests' S for all-to-all: each rank's send buffer, here its tokens (T x d values;
    the 8-byte expert ids beside them are not counted)."""
    t, d = case["shape"]
    return t * d * torch.empty((), dtype=getattr(torch, case["dtype"])).element_size()
