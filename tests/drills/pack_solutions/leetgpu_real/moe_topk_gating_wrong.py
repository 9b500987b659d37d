# Deliberately wrong (ML Infra Studio), for LeetGPU's medium/67_moe_topk_gating: the indices
# are right, but the weights are the softmax over all E logits, not renormalised over the k
# picked ones (one of the two outputs is off; right only when k = E).
import torch


def solve(logits: torch.Tensor, topk_weights: torch.Tensor, topk_indices: torch.Tensor, M: int, E: int, k: int):
    probabilities = torch.softmax(logits, dim=-1)
    values, picked = torch.topk(probabilities, k, dim=-1)
    topk_weights.copy_(values)
    topk_indices.copy_(picked.to(torch.int32))
