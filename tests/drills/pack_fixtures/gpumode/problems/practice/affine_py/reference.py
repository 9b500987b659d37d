# Test fixture in GPU MODE's reference.py shape (written for ML Infra Studio): tensors
# nested in dicts, as BioML's trimul passes its weights.
import torch


def generate_input(rows: int, cols: int, seed: int):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(rows, cols, device=device, generator=gen)
    weights = {"w": torch.randn(cols, device=device, generator=gen),
               "b": torch.randn(cols, device=device, generator=gen)}
    return x, weights, {"alpha": 2.0}


def ref_kernel(data):
    x, weights, config = data
    return config["alpha"] * x * weights["w"] + weights["b"]


def check_implementation(data, output):
    error = (output - ref_kernel(data)).abs().max().item()
    return error <= 1e-5, f"max abs error {error:.3g}"
