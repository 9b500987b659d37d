# Deliberately wrong (ML Infra Studio), for LeetGPU's hard/53_casual_attention: the mask
# lets each row see one row into the future (triu(2) where triu(1) is meant).
import torch


def solve(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, output: torch.Tensor, M: int, d: int):
    scores = (Q @ K.T) * d ** -0.5
    future = torch.ones(M, M, dtype=torch.bool, device=Q.device).triu(2)
    scores.masked_fill_(future, float("-inf"))
    torch.matmul(torch.softmax(scores, dim=-1), V, out=output)
