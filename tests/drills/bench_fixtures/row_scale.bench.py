import torch

sizes = [(3, 33), (5, 100)]
dtypes = ["float32", "float16"]
baselines = {"torch": lambda x, s: x * s[:, None]}


def inputs(size, dtype, device):
    x = torch.randn(size, dtype=dtype, device=device)
    s = torch.rand(size[0], dtype=dtype, device=device) + 0.5
    return x, s


def reference(x, s):
    return (x.double() * s.double()[:, None]).to(x.dtype)


def bytes_moved(size, dtype):
    item = torch.empty((), dtype=dtype).element_size()
    return (2 * size[0] * size[1] + size[0]) * item
