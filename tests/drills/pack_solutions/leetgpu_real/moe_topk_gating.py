# Our own Triton solution, in LeetGPU's form, of its public challenge medium/67_moe_topk_gating
# (two outputs: topk_weights float32 and topk_indices int32, M x k). One program per row
# picks the largest logit k times (the lowest index on a tie), masking each pick out, and
# writes the softmax of the k picked logits with their indices, largest first.
import torch
import triton
import triton.language as tl


@triton.jit
def _gate(logits, weights, indices, E, k, BLOCK_E: tl.constexpr, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_E)
    slots = tl.arange(0, BLOCK_K)
    x = tl.load(logits + row * E + cols, mask=cols < E, other=float("-inf"))
    top = tl.max(x, axis=0)
    picked = tl.zeros([BLOCK_K], tl.float32)
    where = tl.zeros([BLOCK_K], tl.int32)
    for j in range(k):
        best = tl.max(x, axis=0)
        at = tl.argmax(x, axis=0)
        picked = tl.where(slots == j, tl.exp(best - top), picked)
        where = tl.where(slots == j, at.to(tl.int32), where)
        x = tl.where(cols == at, float("-inf"), x)
    total = tl.sum(tl.where(slots < k, picked, 0.0), axis=0)
    tl.store(weights + row * k + slots, picked / total, mask=slots < k)
    tl.store(indices + row * k + slots, where, mask=slots < k)


def solve(logits: torch.Tensor, topk_weights: torch.Tensor, topk_indices: torch.Tensor, M: int, E: int, k: int):
    _gate[(M,)](logits, topk_weights, topk_indices, E, k,
                BLOCK_E=triton.next_power_of_2(E), BLOCK_K=triton.next_power_of_2(k))
