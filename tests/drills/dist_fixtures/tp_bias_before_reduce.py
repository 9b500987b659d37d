"""Bad tensor-parallel MLP: b2 added on every rank before the all-reduce, so y gets n x b2."""

import torch
import torch.distributed as dist
import torch.nn.functional as F


def tp_mlp(x, w1, b1, w2, b2, grad_y):
    pre = x @ w1 + b1
    hidden = F.gelu(pre)
    y = hidden @ w2 + b2                      # the pitfall: every rank's partial carries b2
    dist.all_reduce(y)
    grad_b2 = grad_y.sum(0)
    grad_w2 = hidden.T @ grad_y
    u = pre
    gelu_grad = 0.5 * (1 + torch.erf(u / 2 ** 0.5)) + u * torch.exp(-0.5 * u * u) / (2 * torch.pi) ** 0.5
    grad_pre = (grad_y @ w2.T) * gelu_grad
    grad_x = grad_pre @ w1.T
    dist.all_reduce(grad_x)
    return y, grad_x, x.T @ grad_pre, grad_pre.sum(0), grad_w2, grad_b2
