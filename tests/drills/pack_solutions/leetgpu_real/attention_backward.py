# Our own PyTorch solution, in LeetGPU's form, of its public challenge
# medium/111_softmax_attention_backward (three outputs: dQ, dK, dV). With S = Q K^T / sqrt(d)
# and P = softmax(S) by rows, O = P V: dV = P^T dO; dP = dO V^T; the softmax's backward is
# dS = P * (dP - rowsum(P * dP)); then dQ = dS K / sqrt(d) and dK = dS^T Q / sqrt(d).
import torch


def solve(Q, K, V, dO, dQ, dK, dV, M: int, N: int, d: int):
    scale = d ** -0.5
    P = torch.softmax((Q @ K.T) * scale, dim=1)
    dV.copy_(P.T @ dO)
    dP = dO @ V.T
    dS = P * (dP - (P * dP).sum(dim=1, keepdim=True)) * scale
    dQ.copy_(dS @ K)
    dK.copy_(dS.T @ Q)
