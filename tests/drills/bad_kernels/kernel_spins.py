"""softmax: hangs inside the Triton kernel (spins on a flag nothing ever sets).

On a GPU this is a kernel that never finishes; under the interpreter, a Python loop that
never ends. Either way only the wall-clock timeout ends it.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def spin_kernel(flag_ptr, y_ptr):
    flag = tl.load(flag_ptr)
    while flag == 0:
        flag = tl.load(flag_ptr, volatile=True)
    tl.store(y_ptr, flag)


def softmax(x):
    flag = torch.zeros(1, dtype=torch.int32, device=x.device)
    y = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    spin_kernel[(1,)](flag, y)
    return y
