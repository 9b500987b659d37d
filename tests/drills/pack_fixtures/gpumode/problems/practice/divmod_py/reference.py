# Test fixture in GPU MODE's reference.py shape (written for ML Infra Studio): ref_kernel
# returns a tuple of two new tensors; check_implementation checks both, dtypes included.
import torch
from task import input_t, output_t


def generate_input(size: int, seed: int) -> input_t:
    device = "cuda" if torch.cuda.is_available() else "cpu"
    gen = torch.Generator(device=device).manual_seed(seed)
    return (torch.randn(size, device=device, generator=gen) * 10,
            torch.randn(size, device=device, generator=gen))


def ref_kernel(data: input_t) -> output_t:
    x, shift = data
    total = x + shift
    whole = torch.floor(total)
    return whole.to(torch.int32), total - whole


def check_implementation(data: input_t, output: output_t):
    whole, fraction = ref_kernel(data)
    got_whole, got_fraction = output
    reasons = []
    if got_whole.dtype != torch.int32 or not torch.equal(got_whole, whole):
        reasons.append(f"whole mismatch ({got_whole.dtype})")
    if got_fraction.dtype != torch.float32 or not torch.allclose(got_fraction, fraction, atol=1e-5):
        reasons.append(f"fraction mismatch ({got_fraction.dtype})")
    return not reasons, "; ".join(reasons)
