"""Tensor-parallel MLP (Megatron-LM): y = gelu(x @ W1 + b1) @ W2 + b2, W1 [d, h] split by
columns (rank r holds W1[:, r f:(r+1) f] and b1[r f:(r+1) f]), W2 [h, d] split by rows
(rank r holds W2[r f:(r+1) f, :]), h = f x world size; x, b2 and the upstream gradient
grad_y [B, d] are the same on every rank.

Rank r returns (y, grad_x, grad_w1_r, grad_b1_r, grad_w2_r, grad_b2): the output and the
input's gradient (the same on every rank) and the gradients of its own shards, equal to the
slices of one process's float64 backward of the whole MLP.
"""

import torch
import torch.nn.functional as F


def make_inputs(case, gen, world_size):
    batch, d, f = case["shape"]
    dtype = getattr(torch, case["dtype"])
    h = f * world_size
    scale = 3.0 if case.get("fill") == "wide" else 1.0
    x = scale * torch.randn(batch, d, generator=gen, dtype=torch.float64)
    w1 = torch.randn(d, h, generator=gen, dtype=torch.float64) / d ** 0.5
    b1 = scale * 0.5 * torch.randn(h, generator=gen, dtype=torch.float64)
    w2 = torch.randn(h, d, generator=gen, dtype=torch.float64) / h ** 0.5
    b2 = torch.randn(d, generator=gen, dtype=torch.float64)
    grad_y = torch.randn(batch, d, generator=gen, dtype=torch.float64)
    inputs = []
    for r in range(world_size):
        cols = slice(r * f, (r + 1) * f)
        inputs.append(tuple(t.to(dtype).contiguous() for t in
                            (x, w1[:, cols], b1[cols], w2[cols, :], b2, grad_y)))
    return inputs


def reference(case, inputs, world_size):
    """One process, float64: the whole MLP's forward and backward, then each rank's slices."""
    f = case["shape"][2]
    x = inputs[0][0].to(torch.float64).requires_grad_()
    w1 = torch.cat([args[1] for args in inputs], dim=1).to(torch.float64).requires_grad_()
    b1 = torch.cat([args[2] for args in inputs]).to(torch.float64).requires_grad_()
    w2 = torch.cat([args[3] for args in inputs], dim=0).to(torch.float64).requires_grad_()
    b2 = inputs[0][4].to(torch.float64).requires_grad_()
    y = F.gelu(x @ w1 + b1) @ w2 + b2
    y.backward(inputs[0][5].to(torch.float64))
    out = []
    for r in range(world_size):
        cols = slice(r * f, (r + 1) * f)
        out.append((y.detach(), x.grad, w1.grad[:, cols], b1.grad[cols], w2.grad[cols, :], b2.grad))
    return out


def output_dtypes(case):
    return [getattr(torch, case["dtype"])] * 6
