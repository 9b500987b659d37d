# Test fixture in GPU MODE's reference.py shape (written for ML Infra Studio): a problem for
# several GPUs, only listed in these tests (it needs 4). ref_kernel is the sum over one rank:
# that rank's own input.
import torch


def generate_input(world_size: int, size: int, seed: int, rank: int = 0):
    gen = torch.Generator().manual_seed(seed + rank)
    return torch.randn(size, generator=gen)


def ref_kernel(data):
    return data


def check_implementation(data, output):
    return bool(torch.allclose(output, ref_kernel(data))), ""
