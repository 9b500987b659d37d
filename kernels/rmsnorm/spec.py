"""RMSNorm drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). weight is random, never ones; eps comes
from the case (default 1e-6) so a hard-coded eps fails the eps-0.1 case.
"""

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import case_tensor, dtype_of, param_vector

DEFAULT_EPS = 1e-6


def make_inputs(case, gen, device):
    x = case_tensor(case, gen, device)
    weight = param_vector(case["shape"][-1], dtype_of(case["dtype"]), gen, device,
                          center=1.0, scale=0.5)
    return x, weight, float(case.get("eps", DEFAULT_EPS))


def reference(x, weight, eps):
    """x / sqrt(mean(x^2) + eps) * weight over the last dimension, in float64."""
    x64 = x.to(torch.float64)
    rms = torch.rsqrt(x64.pow(2).mean(dim=-1, keepdim=True) + eps)
    return x64 * rms * weight.to(torch.float64)


def baseline(x, weight, eps):
    return F.rms_norm(x, (x.shape[-1],), weight, eps)


def bytes_moved(case):
    """Read x, write y (M*N each), read weight (N)."""
    rows, cols = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (2 * rows * cols + cols) * itemsize


def flops(case):
    """Square-sum, scale, weight: about 4 per element."""
    rows, cols = case["shape"]
    return 4 * rows * cols
