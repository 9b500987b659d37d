# Deliberately wrong (ML Infra Studio), for LeetGPU's easy/19_reverse_array: the mirror
# index is N - j instead of N - 1 - j (off by one): element 0 is left where it is (its
# mirror would be past the end) and every other element lands one place off.
import torch
import triton
import triton.language as tl


@triton.jit
def _swap_ends(x, N, BLOCK: tl.constexpr):
    j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = (j < N // 2) & (j > 0)
    front = tl.load(x + j, mask=mask)
    back = tl.load(x + (N - j), mask=mask)
    tl.store(x + j, back, mask=mask)
    tl.store(x + (N - j), front, mask=mask)


def solve(input: torch.Tensor, N: int):
    _swap_ends[(max(1, triton.cdiv(N // 2, 1024)),)](input, N, BLOCK=1024)
