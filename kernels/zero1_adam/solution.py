"""Reference solution: ZeRO-1 (optimizer state sharding) for one Adam/AdamW step.

1. Reduce-scatter the gradients: every rank ends with the sum over ranks of its own shard
   only (divided by n: the data-parallel mean). The flat vector is padded to n*c with
   c = ceil(N/n), so reduce_scatter_tensor gets n equal chunks.
2. Update this rank's shard of the parameters with its shard of exp_avg and exp_avg_sq,
   exactly as torch.optim.Adam/AdamW does for those elements.
3. All-gather the updated shards (padded the same way) into the whole parameter vector.

The bytes each rank sends: (n-1)/n of the gradient plus (n-1)/n of the parameters, the
same as one all-reduce of the gradient, while each rank keeps only 1/n of the state.
"""

import math

import torch
import torch.distributed as dist

# torch 2.13 renamed the tensor forms (the old names still work, with a warning).
reduce_scatter = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor
all_gather = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor


def zero1_adam(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay, adamw):
    rank, n = dist.get_rank(), dist.get_world_size()
    numel = param.numel()
    c = -(-numel // n)                                  # padded shard size
    lo, hi = min(rank * c, numel), min((rank + 1) * c, numel)

    padded = torch.zeros(n * c, dtype=torch.float32, device=grad.device)
    padded[:numel] = grad
    g = torch.empty(c, dtype=torch.float32, device=grad.device)
    reduce_scatter(g, padded)                           # sum over ranks of this rank's shard
    g = g[: hi - lo] / n

    p = param[lo:hi].clone()
    if adamw:
        p.mul_(1.0 - lr * weight_decay)                 # decoupled weight decay
    elif weight_decay:
        g = g.add(p, alpha=weight_decay)                # Adam's L2: into the gradient
    exp_avg.mul_(beta1).add_(g, alpha=1.0 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(g, g, value=1.0 - beta2)
    bias1, bias2 = 1.0 - beta1 ** step, 1.0 - beta2 ** step
    denom = (exp_avg_sq.sqrt() / math.sqrt(bias2)).add_(eps)
    p.addcdiv_(exp_avg, denom, value=-lr / bias1)

    shard = torch.zeros(c, dtype=torch.float32, device=param.device)
    shard[: hi - lo] = p
    full = torch.empty(n * c, dtype=torch.float32, device=param.device)
    all_gather(full, shard)
    return full[:numel], exp_avg, exp_avg_sq
