# Deliberately wrong (ML Infra Studio), for LeetGPU's medium/13_histogramming: the last
# input value is never counted.
import torch


def solve(input: torch.Tensor, histogram: torch.Tensor, N: int, num_bins: int):
    values = input[: N - 1]
    valid = values[(values >= 0) & (values < num_bins)].long()
    histogram.zero_()
    histogram.scatter_add_(0, valid, torch.ones_like(valid, dtype=histogram.dtype))
