# Test fixture in LeetGPU's challenge.py shape (written for ML Infra Studio): an "inout"
# argument, read and then written in place (one test where it stays as it was: n = 1).
import ctypes

import torch
from core.challenge_base import ChallengeBase


class Challenge(ChallengeBase):
    name = "Rotate by One"
    atol = 0.0
    rtol = 0.0
    num_gpus = 1

    def reference_impl(self, x: torch.Tensor, n: int):
        x.copy_(torch.roll(x, 1))

    def get_solve_signature(self):
        return {"x": (ctypes.POINTER(ctypes.c_float), "inout"), "n": (ctypes.c_int, "in")}

    def generate_example_test(self):
        return {"x": torch.tensor([1.0, 2.0, 3.0], device=self.device), "n": 3}

    def generate_functional_test(self):
        return [{"x": torch.randn(n, device=self.device), "n": n} for n in (1, 300)]
