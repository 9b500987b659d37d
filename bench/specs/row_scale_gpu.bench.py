"""GPU sweep for the row_scale fixture kernel (tests/drills/bench_fixtures/row_scale.py):
used to check `studio-bench run` on a real GPU (bench/results/bench_cli_gpu.md)."""
import torch

sizes = [(4096, 256), (4096, 1024), (4096, 4096), (8192, 8192)]
dtypes = ["float16", "float32"]
baselines = {
    "torch": lambda x, s: x * s[:, None],
    "torch.compile": torch.compile(lambda x, s: x * s[:, None]),
    "raises": lambda x, s: (_ for _ in ()).throw(RuntimeError("a baseline that raises")),
}


def inputs(size, dtype, device):
    return torch.randn(size, dtype=dtype, device=device), torch.rand(size[0], dtype=dtype, device=device) + 0.5


def reference(x, s):
    return (x.double() * s.double()[:, None]).to(x.dtype)


def bytes_moved(size, dtype):
    item = torch.empty((), dtype=dtype).element_size()
    return (2 * size[0] * size[1] + size[0]) * item


def flops(size, dtype):
    return size[0] * size[1]
