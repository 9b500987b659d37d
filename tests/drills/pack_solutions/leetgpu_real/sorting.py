# Our own PyTorch solution, in LeetGPU's form, of its public challenge hard/15_sorting
# (sort N float32 values ascending, in place).
import torch


def solve(data: torch.Tensor, N: int):
    data.copy_(torch.sort(data, stable=True).values)
