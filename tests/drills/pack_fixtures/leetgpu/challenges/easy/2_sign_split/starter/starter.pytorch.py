import torch


# x, mag, neg are tensors on the GPU
def solve(x: torch.Tensor, mag: torch.Tensor, neg: torch.Tensor, n: int):
    pass
