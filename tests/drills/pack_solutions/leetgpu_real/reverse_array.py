# Our own Triton solution, in LeetGPU's form, of its public challenge easy/19_reverse_array
# (reverse N float32 values in place): program i swaps element j with N - 1 - j for its
# block of j < N / 2 (the middle element of an odd N stays where it is).
import torch
import triton
import triton.language as tl


@triton.jit
def _swap_ends(x, N, BLOCK: tl.constexpr):
    j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = j < N // 2
    front = tl.load(x + j, mask=mask)
    back = tl.load(x + (N - 1 - j), mask=mask)
    tl.store(x + j, back, mask=mask)
    tl.store(x + (N - 1 - j), front, mask=mask)


def solve(input: torch.Tensor, N: int):
    _swap_ends[(max(1, triton.cdiv(N // 2, 1024)),)](input, N, BLOCK=1024)
