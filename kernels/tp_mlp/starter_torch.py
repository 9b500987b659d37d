"""Tensor-parallel MLP, Megatron style: your solution (see the statement).

Runs on every rank at once: torch.distributed is initialised for you (gloo on CPU, NCCL on
GPUs). Use dist.all_reduce, exactly once in the forward pass and once in the backward; the
other collectives and send/recv are flagged.
Run it:  studio-drill run tp_mlp path/to/this_file.py --world-size 4
"""

import torch
import torch.distributed as dist
import torch.nn.functional as F


def tp_mlp(x, w1, b1, w2, b2, grad_y):
    """Forward and backward of y = gelu(x @ W1 + b1) @ W2 + b2, W1 split by columns and W2 by rows.

    x [B, d], b2 [d], grad_y [B, d]: the same on every rank. w1 [d, f], b1 [f]: this rank's
    columns of W1 and b1; w2 [f, d]: this rank's rows of W2 (F.gelu, the exact erf form).
    Return (y, grad_x, grad_w1, grad_b1, grad_w2, grad_b2), all float32: y and grad_x of
    the whole MLP, the gradients of this rank's shards, given dL/dy = grad_y.
    Plan: column-parallel linear + GELU locally, row-parallel linear, one all-reduce, b2;
    backward by hand or through autograd Functions, with one all-reduce for grad_x.
    """
    rank, world = dist.get_rank(), dist.get_world_size()
    raise NotImplementedError("tp_mlp: column-parallel, then row-parallel, one all-reduce each way")
