"""Harness overhead (issue #18): a 20-point sweep of a ~10 µs kernel (row_scale fixture,
float16, 4096 rows) with one baseline. See bench/results/bench_cli_gpu.md."""
import torch

sizes = [(4096, 768 + 64 * i) for i in range(20)]
dtypes = ["float16"]
baselines = {"torch": lambda x, s: x * s[:, None]}


def inputs(size, dtype, device):
    return torch.randn(size, dtype=dtype, device=device), torch.rand(size[0], dtype=dtype, device=device) + 0.5


def reference(x, s):
    return (x.double() * s.double()[:, None]).to(x.dtype)


def bytes_moved(size, dtype):
    return (2 * size[0] * size[1] + size[0]) * torch.empty((), dtype=dtype).element_size()
