"""ZeRO-1 with shards of N // n elements (no padding): the last N % n elements are never
reduced, updated or gathered (they keep their old values), and the state shards are short."""

import math

import torch
import torch.distributed as dist


def zero1_adam(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay, adamw):
    rank, n = dist.get_rank(), dist.get_world_size()
    c = param.numel() // n                               # the pitfall: rounds the remainder away
    full = param.clone()
    exp_avg, exp_avg_sq = exp_avg[:c].clone(), exp_avg_sq[:c].clone()
    if c:
        g = torch.empty(c)
        dist.reduce_scatter_tensor(g, grad[: n * c].contiguous())
        g /= n
        p = param[rank * c:(rank + 1) * c].clone()
        if adamw:
            p.mul_(1.0 - lr * weight_decay)
        else:
            g = g.add(p, alpha=weight_decay)
        exp_avg.mul_(beta1).add_(g, alpha=1.0 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(g, g, value=1.0 - beta2)
        denom = (exp_avg_sq.sqrt() / math.sqrt(1.0 - beta2 ** step)).add_(eps)
        p.addcdiv_(exp_avg, denom, value=-lr / (1.0 - beta1 ** step))
        dist.all_gather_into_tensor(full[: n * c], p)
    return full, exp_avg, exp_avg_sq
