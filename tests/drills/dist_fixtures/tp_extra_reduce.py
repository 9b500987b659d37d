"""Tensor-parallel MLP with right values and a wasted all-reduce: grad_b2 averaged over the
ranks as if they were data-parallel replicas (it is already the same on every rank)."""

import torch
import torch.distributed as dist
import torch.nn.functional as F


def tp_mlp(x, w1, b1, w2, b2, grad_y):
    pre = x @ w1 + b1
    hidden = F.gelu(pre)
    y = hidden @ w2
    dist.all_reduce(y)
    y = y + b2
    grad_b2 = grad_y.sum(0)
    dist.all_reduce(grad_b2)                  # the waste
    grad_b2 /= dist.get_world_size()
    gelu_grad = 0.5 * (1 + torch.erf(pre / 2 ** 0.5)) + pre * torch.exp(-0.5 * pre * pre) / (2 * torch.pi) ** 0.5
    grad_pre = (grad_y @ w2.T) * gelu_grad
    grad_x = grad_pre @ w1.T
    dist.all_reduce(grad_x)
    return y, grad_x, x.T @ grad_pre, grad_pre.sum(0), hidden.T @ grad_y, grad_b2
