# Deliberately wrong (ML Infra Studio), for LeetGPU's hard/15_sorting: sorts all values but
# the last, which stays where it was.
import torch


def solve(data: torch.Tensor, N: int):
    data[: N - 1] = torch.sort(data[: N - 1]).values
