# Test fixture in GPU MODE's reference.py shape (written for ML Infra Studio): ref_kernel
# returns a NEW tensor computed in float64, while `data` carries a float32 output buffer.
import torch
from task import input_t, output_t


def generate_input(size: int, seed: int) -> input_t:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(size, device=device, generator=gen)
    y = torch.randn(size, device=device, generator=gen)
    return x, y, torch.empty(size, device=device)


def ref_kernel(data: input_t) -> output_t:
    x, y, _ = data
    return x.double() + y.double()


def check_implementation(data: input_t, output: output_t):
    expected = ref_kernel(data)
    if output.shape != expected.shape:
        return False, f"shape {tuple(output.shape)} != {tuple(expected.shape)}"
    error = (output.double() - expected).abs().max().item()
    return error <= 1e-5, f"max abs error {error:.3g}"
