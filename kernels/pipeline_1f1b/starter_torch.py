"""Pipeline parallel with the 1F1B schedule: your solution (see the statement).

Runs on every rank at once: rank r is stage r of the model. torch.distributed is initialised
for you (gloo on CPU, NCCL on GPUs). Move activations and gradients with dist.send / recv /
isend / irecv (or batch_isend_irecv); the collectives are flagged.
Run it:  studio-drill run pipeline_1f1b path/to/this_file.py --world-size 4
"""

import torch
import torch.distributed as dist


def pipeline_1f1b(x, target, weight, bias, num_microbatches):
    """One training step of the pipeline: return (grad_weight, grad_bias, schedule) of this stage.

    x, target: [B, d] float32, the same on every rank (only stage 0 feeds x, only the last
    stage reads target). weight [d, d], bias [d]: this rank's stage, h -> tanh(h @ weight + bias).
    num_microbatches: m, split the batch with torch.tensor_split(x, m).
    Loss: 0.5 * ((y - target) ** 2).sum() / B over the whole batch.
    grad_weight, grad_bias: dLoss/dweight and dLoss/dbias of this stage, summed over the m
    micro-batches. schedule: int64 tensor of length 2m, the passes in the order this stage ran
    them: i + 1 for the forward of micro-batch i, -(i + 1) for its backward.
    Plan: warm-up forwards (min(p - 1 - rank, m)), then one forward and one backward in turn,
    then the remaining backwards; keep each micro-batch's input until its backward.
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    raise NotImplementedError("pipeline_1f1b: write the warm-up, steady 1F1B and cool-down phases")
