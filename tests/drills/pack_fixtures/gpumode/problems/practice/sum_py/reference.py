# Test fixture in GPU MODE's reference.py shape (written for ML Infra Studio): ref_kernel
# returns a 0-d float64 tensor while the output buffer in `data` has shape (1,).
import torch
from task import input_t, output_t


def generate_input(size: int, seed: int) -> input_t:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    gen = torch.Generator(device=device).manual_seed(seed)
    return torch.randn(size, device=device, generator=gen), torch.empty(1, device=device)


def ref_kernel(data: input_t) -> output_t:
    x, _ = data
    return x.double().sum()


def check_implementation(data: input_t, output: output_t):
    expected = ref_kernel(data)
    error = abs(output.double().sum().item() - expected.item())
    return error <= 1e-4 * max(1.0, abs(expected.item())), f"off by {error:.3g}"
