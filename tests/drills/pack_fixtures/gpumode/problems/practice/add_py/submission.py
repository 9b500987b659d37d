import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    x, y, out = data
    torch.add(x, y, out=out)
    return out
