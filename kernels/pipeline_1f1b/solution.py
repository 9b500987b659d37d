"""Reference solution: 1F1B pipeline schedule (PipeDream-Flush, as Megatron-LM runs it).

Rank r is stage r. Stage r runs min(p-1-r, m) warm-up forwards, then alternates one
forward and one backward, then drains the remaining backwards. A micro-batch's stage input
(and its autograd graph) is kept from its forward until its backward: at most p-r of them
at once on stage r, against m for GPipe's all-forwards-then-all-backwards.

Activations go right and gradients go left with isend, posted and waited for at the end:
a blocking send that meets the neighbour's blocking send (stage r sending activation i+1
while stage r+1 sends the gradient of i) could wait forever. Each recv only waits for a
message its peer sends in any case, so the schedule cannot deadlock.

The loss is summed over the micro-batch and divided by the whole batch's size B, so the
gradients accumulated over the m micro-batches are those of the whole batch, whatever the
micro-batch sizes (torch.tensor_split: they differ by one when m does not divide B).
"""

import torch
import torch.distributed as dist


def pipeline_1f1b(x, target, weight, bias, num_microbatches):
    rank, p = dist.get_rank(), dist.get_world_size()
    m = num_microbatches
    first, last = rank == 0, rank == p - 1
    w = weight.detach().clone().requires_grad_()
    b = bias.detach().clone().requires_grad_()
    inputs, targets = torch.tensor_split(x, m), torch.tensor_split(target, m)
    batch = x.shape[0]
    stash: dict[int, tuple] = {}          # micro-batch -> (stage input, stage output or loss)
    sends = []
    order: list[int] = []

    def forward(i: int) -> None:
        if first:
            h = inputs[i]
        else:
            h = torch.empty_like(inputs[i])
            dist.recv(h, rank - 1)
            h.requires_grad_()
        out = torch.tanh(h @ w + b)
        if last:
            out = 0.5 * ((out - targets[i]) ** 2).sum() / batch
        else:
            sends.append((dist.isend(out.detach(), rank + 1), out))
        stash[i] = (h, out)
        order.append(i + 1)

    def backward(i: int) -> None:
        h, out = stash.pop(i)
        if last:
            out.backward()
        else:
            grad = torch.empty_like(out)
            dist.recv(grad, rank + 1)
            out.backward(grad)
        if not first:
            sends.append((dist.isend(h.grad, rank - 1), h))
        order.append(-(i + 1))

    warmup = min(p - 1 - rank, m)
    for i in range(warmup):
        forward(i)
    for i in range(m - warmup):
        forward(warmup + i)
        backward(i)
    for i in range(m - warmup, m):
        backward(i)
    for work, _ in sends:
        work.wait()
    return w.grad, b.grad, torch.tensor(order, dtype=torch.int64)
