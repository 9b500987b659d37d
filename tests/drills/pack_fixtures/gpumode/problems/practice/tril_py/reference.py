# Test fixture in GPU MODE's reference.py shape (written for ML Infra Studio): `data` is a
# single tensor, and ref_kernel returns a new tensor of its shape.
import torch


def generate_input(batch: int, n: int, seed: int):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    gen = torch.Generator(device=device).manual_seed(seed)
    return torch.randn(batch, n, n, device=device, generator=gen)


def ref_kernel(data):
    return torch.tril(data)


def check_implementation(data, output):
    if not isinstance(output, torch.Tensor) or output.shape != data.shape:
        return False, f"expected one tensor of shape {tuple(data.shape)}"
    error = (output - torch.tril(data)).abs().max().item()
    return error == 0.0, f"max abs error {error:.3g}"
