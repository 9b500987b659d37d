# Test fixture written for ML Infra Studio: shared helpers of a GPU MODE-style group.
import torch


def match_reference(reference, atol=1e-5, rtol=1e-5):
    def check(data, output):
        expected = reference(tuple(t.clone() for t in data))
        if output.shape != expected.shape:
            return False, f"shape {tuple(output.shape)} != {tuple(expected.shape)}"
        if not torch.allclose(output, expected, atol=atol, rtol=rtol):
            return False, f"max abs error {(output - expected).abs().max().item():.3g}"
        return True, ""
    return check
