"""LayerNorm drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). weight and bias are random (never ones and
zeros, which would hide a solution that ignores them); eps comes from the case (default
1e-5) so a hard-coded eps fails the eps-0.1 case.
"""

import torch
import torch.nn.functional as F

from studio.drills.harness.inputs import case_tensor, dtype_of, param_vector

DEFAULT_EPS = 1e-5


def make_inputs(case, gen, device):
    x = case_tensor(case, gen, device)
    n = case["shape"][-1]
    dtype = dtype_of(case["dtype"])
    weight = param_vector(n, dtype, gen, device, center=1.0, scale=0.5)
    bias = param_vector(n, dtype, gen, device, center=0.0, scale=0.5)
    return x, weight, bias, float(case.get("eps", DEFAULT_EPS))


def reference(x, weight, bias, eps):
    """LayerNorm over the last dimension in float64 (biased variance, like torch)."""
    d = torch.float64
    return F.layer_norm(x.to(d), (x.shape[-1],), weight.to(d), bias.to(d), eps)


def baseline(x, weight, bias, eps):
    return F.layer_norm(x, (x.shape[-1],), weight, bias, eps)


def bytes_moved(case):
    """Read x, write y (M*N each), read weight and bias (N each)."""
    rows, cols = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (2 * rows * cols + 2 * cols) * itemsize


def flops(case):
    """Sum, centre, square-sum, scale, affine: about 8 per element."""
    rows, cols = case["shape"]
    return 8 * rows * cols
