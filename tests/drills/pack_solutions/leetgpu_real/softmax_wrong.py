# Deliberately wrong (ML Infra Studio), for LeetGPU's medium/5_softmax: the sum of the
# exponentials leaves out the last element of the vector.
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax(x, y, N, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    biggest = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, N, BLOCK):
        v = tl.load(x + start + offsets, mask=start + offsets < N, other=float("-inf"))
        biggest = tl.maximum(biggest, v)
    top = tl.max(biggest, axis=0)
    total = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        v = tl.load(x + start + offsets, mask=start + offsets < N - 1, other=float("-inf"))
        total += tl.exp(v - top)
    total_sum = tl.sum(total, axis=0)
    for start in range(0, N, BLOCK):
        mask = start + offsets < N
        v = tl.load(x + start + offsets, mask=mask)
        tl.store(y + start + offsets, tl.exp(v - top) / total_sum, mask=mask)


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    _softmax[(1,)](input, output, N, BLOCK=1024)
