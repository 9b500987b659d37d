# Our own PyTorch solution, in LeetGPU's form, of its public challenge hard/53_casual_attention
# (causal softmax attention of one head, Q, K, V of shape M x d, float32): row i attends to
# rows 0..i, scores scaled by 1 / sqrt(d).
import torch


def solve(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, output: torch.Tensor, M: int, d: int):
    scores = (Q @ K.T) * d ** -0.5
    future = torch.ones(M, M, dtype=torch.bool, device=Q.device).triu(1)
    scores.masked_fill_(future, float("-inf"))
    torch.matmul(torch.softmax(scores, dim=-1), V, out=output)
