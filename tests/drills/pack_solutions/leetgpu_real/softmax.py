# Our own Triton solution, in LeetGPU's form, of its public challenge medium/5_softmax
# (softmax of one float32 vector of N values). One program walks the vector twice: a running
# maximum and a running sum of exp(x - max), rescaled when the maximum grows (the "online"
# softmax), then writes exp(x - max) / sum. Simple, not fast for large N (one SM works).
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax(x, y, N, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    biggest = tl.full([BLOCK], float("-inf"), tl.float32)
    total = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        v = tl.load(x + start + offsets, mask=start + offsets < N, other=float("-inf"))
        grown = tl.maximum(biggest, v)
        safe = tl.where(grown == float("-inf"), 0.0, grown)
        total = total * tl.exp(biggest - safe) + tl.exp(v - safe)
        biggest = grown
    top = tl.max(biggest, axis=0)
    total = tl.sum(total * tl.exp(tl.where(biggest == float("-inf"), top, biggest) - top), axis=0)
    for start in range(0, N, BLOCK):
        mask = start + offsets < N
        v = tl.load(x + start + offsets, mask=mask)
        tl.store(y + start + offsets, tl.exp(v - top) / total, mask=mask)


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    _softmax[(1,)](input, output, N, BLOCK=1024)
