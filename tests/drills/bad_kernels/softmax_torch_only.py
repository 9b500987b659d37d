"""softmax: launches no Triton kernel.

Imports triton but computes everything with torch primitives (numerically correct).
"""
import torch
import triton  # noqa: F401  (only for show)


def softmax(x):
    z = x.float() - x.float().amax(dim=-1, keepdim=True)
    e = torch.exp(z)
    return (e / e.sum(dim=-1, keepdim=True)).to(x.dtype)
