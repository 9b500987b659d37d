# Test fixture in LeetGPU's challenge.py shape (written for ML Infra Studio): two outputs.
import ctypes

import torch
from core.challenge_base import ChallengeBase


class Challenge(ChallengeBase):
    name = "Sign Split"
    atol = 1e-06
    rtol = 1e-06
    num_gpus = 1

    def reference_impl(self, x: torch.Tensor, mag: torch.Tensor, neg: torch.Tensor, n: int):
        torch.abs(x, out=mag)
        neg.copy_((x < 0).to(torch.int32))

    def get_solve_signature(self):
        return {"x": (ctypes.POINTER(ctypes.c_float), "in"), "mag": (ctypes.POINTER(ctypes.c_float), "out"),
                "neg": (ctypes.POINTER(ctypes.c_int), "out"), "n": (ctypes.c_int, "in")}

    def generate_example_test(self):
        x = torch.tensor([1.5, -2.0, 0.0], device=self.device)
        return {"x": x, "mag": torch.empty(3, device=self.device),
                "neg": torch.empty(3, device=self.device, dtype=torch.int32), "n": 3}

    def generate_functional_test(self):
        return [{"x": torch.randn(n, device=self.device), "mag": torch.empty(n, device=self.device),
                 "neg": torch.empty(n, device=self.device, dtype=torch.int32), "n": n} for n in (1, 257)]

    def generate_performance_test(self):
        n = 1 << 16
        return {"x": torch.randn(n, device=self.device), "mag": torch.empty(n, device=self.device),
                "neg": torch.empty(n, device=self.device, dtype=torch.int32), "n": n}
