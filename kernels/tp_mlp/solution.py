"""Reference solution: Megatron-LM's tensor-parallel MLP (Shoeybi et al., 2019, section 3).

Column-parallel first linear: rank r computes its f hidden units, gelu(x @ W1_r + b1_r),
from the whole x with no communication (GELU is element-wise, so it needs no gather).
Row-parallel second linear: rank r's partial output h_r @ W2_r is summed over the ranks by
one all-reduce, then b2 is added once. These are Megatron's conjugate operators:

    f: identity in forward, all-reduce in backward   (before the column-parallel linear)
    g: all-reduce in forward, identity in backward   (after the row-parallel linear)

written here as two autograd Functions, so that autograd derives every other gradient:
grad_w1, grad_b1, grad_w2 stay local (each rank owns its shard), grad_b2 is the same on
every rank (grad_y is), and grad_x needs the backward all-reduce of f because each rank's
x fed only its own hidden units.
"""

import torch
import torch.distributed as dist
import torch.nn.functional as F


class _CopyToTensorParallel(torch.autograd.Function):           # Megatron's f
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        dist.all_reduce(grad)
        return grad


class _ReduceFromTensorParallel(torch.autograd.Function):       # Megatron's g
    @staticmethod
    def forward(ctx, partial):
        total = partial.clone()
        dist.all_reduce(total)
        return total

    @staticmethod
    def backward(ctx, grad):
        return grad


def tp_mlp(x, w1, b1, w2, b2, grad_y):
    x, w1, b1, w2, b2 = (t.detach().requires_grad_() for t in (x, w1, b1, w2, b2))
    hidden = F.gelu(_CopyToTensorParallel.apply(x) @ w1 + b1)
    y = _ReduceFromTensorParallel.apply(hidden @ w2) + b2
    y.backward(grad_y)
    return y.detach(), x.grad, w1.grad, b1.grad, w2.grad, b2.grad
