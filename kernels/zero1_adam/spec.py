"""ZeRO-1 optimizer step: data-parallel ranks share the parameters, each holds 1/n of Adam's state.

Every rank gets the same flat parameter vector param [N], its own gradient grad_r [N] (from
its part of the batch), its shard of exp_avg and exp_avg_sq, and the step's hyperparameters.
Shards are padded ZeRO/FSDP style: with c = ceil(N / n), rank r owns [r*c, min((r+1)*c, N))
(the last shards may be shorter or empty). The step uses the mean gradient over the ranks
and must give what one torch.optim.AdamW (adamw) or torch.optim.Adam (coupled L2 weight
decay) step gives on the whole vector. Rank r returns (param, exp_avg_r, exp_avg_sq_r):
the whole updated vector and its updated shard of the state.
"""

import torch


def shard_bounds(n_elements, world_size, rank):
    c = -(-n_elements // world_size)
    return min(rank * c, n_elements), min((rank + 1) * c, n_elements)


def hyper(case):
    return (int(case.get("step", 1)), float(case.get("lr", 1e-2)), float(case.get("beta1", 0.9)),
            float(case.get("beta2", 0.999)), float(case.get("eps", 1e-8)), float(case.get("weight_decay", 0.0)),
            bool(case.get("adamw", True)))


def make_inputs(case, gen, world_size):
    (n,) = case["shape"]
    dtype = getattr(torch, case["dtype"])
    step = hyper(case)[0]
    param = torch.randn(n, generator=gen, dtype=torch.float64)
    if case.get("fill") == "large_offset":
        param = param + 100.0
    grads = [torch.randn(n, generator=gen, dtype=torch.float64) * 0.1 for _ in range(world_size)]
    if step == 1:                                   # a fresh optimizer: no state yet
        exp_avg, exp_avg_sq = torch.zeros(n, dtype=torch.float64), torch.zeros(n, dtype=torch.float64)
    else:                                           # state of earlier steps: any mean, a positive second moment
        exp_avg = torch.randn(n, generator=gen, dtype=torch.float64) * 0.05
        exp_avg_sq = torch.rand(n, generator=gen, dtype=torch.float64) * 0.01
    inputs = []
    for r in range(world_size):
        lo, hi = shard_bounds(n, world_size, r)
        inputs.append((param.to(dtype), grads[r].to(dtype), exp_avg[lo:hi].to(dtype).clone(),
                       exp_avg_sq[lo:hi].to(dtype).clone(), *hyper(case)))
    return inputs


def reference(case, inputs, world_size):
    """One unsharded torch.optim step in float64, started from the ranks' state shards."""
    step, lr, beta1, beta2, eps, weight_decay, adamw = hyper(case)
    param = inputs[0][0].to(torch.float64).clone().requires_grad_()
    param.grad = sum(args[1].to(torch.float64) for args in inputs) / world_size
    optim = (torch.optim.AdamW if adamw else torch.optim.Adam)(
        [param], lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=weight_decay, foreach=False)
    optim.state[param] = {"step": torch.tensor(float(step - 1)),
                          "exp_avg": torch.cat([args[2].to(torch.float64) for args in inputs]),
                          "exp_avg_sq": torch.cat([args[3].to(torch.float64) for args in inputs])}
    optim.step()
    state = optim.state[param]
    n = param.numel()
    out = []
    for r in range(world_size):
        lo, hi = shard_bounds(n, world_size, r)
        out.append((param.detach().clone(), state["exp_avg"][lo:hi].clone(), state["exp_avg_sq"][lo:hi].clone()))
    return out
