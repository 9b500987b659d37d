# Test fixture in LeetGPU's challenge.py shape (written for ML Infra Studio).
import ctypes

import torch
from core.challenge_base import ChallengeBase


class Challenge(ChallengeBase):
    name = "Scale by Three"
    atol = 1e-05
    rtol = 1e-05
    num_gpus = 1

    def reference_impl(self, x: torch.Tensor, y: torch.Tensor, n: int):
        torch.mul(x, 3, out=y)

    def get_solve_signature(self):
        return {"x": (ctypes.POINTER(ctypes.c_float), "in"), "y": (ctypes.POINTER(ctypes.c_float), "out"),
                "n": (ctypes.c_int, "in")}

    def generate_example_test(self):
        return {"x": torch.tensor([1.0, -2.0, 0.5], device=self.device), "y": torch.empty(3, device=self.device),
                "n": 3}

    def generate_functional_test(self):
        return [{"x": torch.randn(n, device=self.device), "y": torch.empty(n, device=self.device), "n": n}
                for n in (1, 5, 130)]

    def generate_performance_test(self):
        n = 1 << 20
        return {"x": torch.randn(n, device=self.device), "y": torch.empty(n, device=self.device), "n": n}
