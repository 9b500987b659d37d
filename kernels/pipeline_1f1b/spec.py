"""Pipeline parallel 1F1B: rank r is stage r of a toy model, h -> tanh(h @ W_r + b_r).

Every rank gets the same batch x [B, d] and target [B, d] (a replicated data loader: only
stage 0 feeds x, only the last stage reads target), its own stage's W_r [d, d] and b_r [d],
and the number of micro-batches m. The loss of the step is

    L = 0.5 * ((y - target) ** 2).sum() / B          y = stage_(p-1)( ... stage_0(x))

Rank r returns (dL/dW_r, dL/db_r, schedule_r), the gradients of the whole batch (the same
as one process running the whole model on it) and the order in which it ran its forward
(+(i+1)) and backward (-(i+1)) passes of micro-batch i.
"""

import torch


def microbatches(case):
    return int(case.get("microbatches", 1))


def make_inputs(case, gen, world_size):
    batch, d = case["shape"]
    dtype = getattr(torch, case["dtype"])
    x = torch.randn(batch, d, generator=gen, dtype=torch.float64)
    target = torch.randn(batch, d, generator=gen, dtype=torch.float64)
    inputs = []
    for _ in range(world_size):
        weight = torch.randn(d, d, generator=gen, dtype=torch.float64) / d ** 0.5
        bias = 0.1 * torch.randn(d, generator=gen, dtype=torch.float64)
        inputs.append((x.to(dtype), target.to(dtype), weight.to(dtype), bias.to(dtype), microbatches(case)))
    return inputs


def schedule(rank, world_size, m):
    """1F1B (PipeDream-Flush, as Megatron-LM runs it): min(p-1-r, m) warm-up forwards, then
    one forward and one backward in turn, then the remaining backwards."""
    warmup = min(world_size - 1 - rank, m)
    order = [i + 1 for i in range(warmup)]
    for i in range(m - warmup):
        order += [warmup + i + 1, -(i + 1)]
    order += [-(i + 1) for i in range(m - warmup, m)]
    return order


def reference(case, inputs, world_size):
    """Gradients of the whole model on the whole batch, in float64, in one process."""
    x, target = inputs[0][0].to(torch.float64), inputs[0][1].to(torch.float64)
    params = [(args[2].to(torch.float64).requires_grad_(), args[3].to(torch.float64).requires_grad_())
              for args in inputs]
    h = x
    for weight, bias in params:
        h = torch.tanh(h @ weight + bias)
    loss = 0.5 * ((h - target) ** 2).sum() / x.shape[0]
    loss.backward()
    m = microbatches(case)
    return [(weight.grad.detach(), bias.grad.detach(),
             torch.tensor(schedule(r, world_size, m), dtype=torch.int64))
            for r, (weight, bias) in enumerate(params)]


def output_dtypes(case):
    dtype = getattr(torch, case["dtype"])
    return [dtype, dtype, torch.int64]


def ideal_idle(case, world_size):
    """The 1F1B bubble: each stage waits p-1 slots of the m+p-1 a step takes."""
    p, m = world_size, microbatches(case)
    return (p - 1) / (m + p - 1), f"(p-1)/(m+p-1) = {p - 1}/{m + p - 1}"
