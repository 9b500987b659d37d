"""ZeRO-1 optimizer step (sharded Adam state): your solution (see the statement).

Runs on every rank at once: torch.distributed is initialised for you (gloo on CPU, NCCL on
GPUs). Use dist.reduce_scatter_tensor for the gradients and dist.all_gather_into_tensor for
the parameters (or their list forms, or send/recv); dist.all_reduce is flagged.
Run it:  studio-drill run zero1_adam path/to/this_file.py --world-size 4
"""

import torch
import torch.distributed as dist


def zero1_adam(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay, adamw):
    """One data-parallel optimizer step with the Adam state sharded over the ranks.

    param: [N] float32, the same on every rank. grad: [N], this rank's gradient (the step
    uses the mean over ranks). exp_avg, exp_avg_sq: this rank's shard of Adam's state,
    elements [r*c, min((r+1)*c, N)) with c = ceil(N / world_size) (may be empty).
    step: the step number after this one (1 for the first); lr, beta1, beta2, eps,
    weight_decay: floats; adamw: True for AdamW (decoupled decay), False for Adam (L2).
    Return (param, exp_avg, exp_avg_sq): the whole updated parameter vector and this rank's
    updated state shard, equal to one torch.optim.AdamW / Adam step on the whole vector.
    Plan: reduce-scatter the padded gradients, update your shard, all-gather the shards.
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    raise NotImplementedError("zero1_adam: reduce-scatter, update your shard, all-gather")
