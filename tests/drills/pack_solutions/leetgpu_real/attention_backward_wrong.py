# Deliberately wrong (ML Infra Studio), for LeetGPU's medium/111_softmax_attention_backward:
# dQ and dV are right; dK leaves out the 1 / sqrt(d) scale (one of the three outputs is off).
import torch


def solve(Q, K, V, dO, dQ, dK, dV, M: int, N: int, d: int):
    scale = d ** -0.5
    P = torch.softmax((Q @ K.T) * scale, dim=1)
    dV.copy_(P.T @ dO)
    dP = dO @ V.T
    dS = P * (dP - (P * dP).sum(dim=1, keepdim=True))
    dQ.copy_((dS * scale) @ K)
    dK.copy_(dS.T @ Q)
