"""softmax (GPU only): an illegal memory access, a sticky CUDA error.

Stores far outside any allocation. Under the CPU interpreter this could corrupt memory,
so CI skips it; the GPU check expects status cuda_error with this file's launch line.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(y_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    tl.store(y_ptr + cols + (1 << 40), tl.zeros([BLOCK], tl.float32), mask=cols < N)


def softmax(x):
    y = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    kernel[(1,)](y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
