"""Fused-AdamW drill: inputs, float64 reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). A case is one optimizer step over a flat
buffer of N parameters (the "multi-tensor apply" layout: every parameter of a model packed
end to end). param, exp_avg and exp_avg_sq are float32 master copies; grad has the case's
dtype (float32, or float16 / bfloat16 gradients of mixed-precision training). The state is
that of a run already under way: exp_avg ~ 0.1 * randn, exp_avg_sq = (0.1 * randn)^2 +
exp_avg^2, or zeros at step 1 (both before the first update). The exp_avg^2 term keeps the
state one a real run can reach (v is an average of g^2 and m of g, so m^2 is at most about
v): with the two drawn apart, v could be ~1e-12 beside m ~ 0.1, a parameter step ~10^4 lr
wide, and float32 rounding of that step alone (3e-7 on one element of 201M on the H200)
above the tolerance meant for real steps.

Extra case keys: step (the step number t of this update, >= 1; default 10), lr (default
1e-3), beta1 (0.9), beta2 (0.999), eps (1e-8), weight_decay (0.01), grad_scale (grad is
grad_scale * randn; default 1), zero_grad_frac (that fraction of grad is exactly 0).
layout: contiguous | strided (grad is every other element of a buffer twice as long).

The answer is one [3, N] float32 tensor: the new param, exp_avg and exp_avg_sq (a drill
returns a new tensor and never changes its inputs; kernels/README.md).
"""

import math

import torch

from studio.drills.harness.inputs import dtype_of, place

DEFAULTS = {"step": 10, "lr": 1e-3, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "weight_decay": 0.01}


def hyper(case):
    return {k: case.get(k, v) for k, v in DEFAULTS.items()}


def make_inputs(case, gen, device):
    (N,) = case["shape"]
    h = hyper(case)
    param = torch.randn(N, generator=gen)
    grad = float(case.get("grad_scale", 1.0)) * torch.randn(N, generator=gen)
    frac = float(case.get("zero_grad_frac", 0.0))
    if frac:
        grad[torch.rand(N, generator=gen) < frac] = 0.0
    if int(h["step"]) == 1:
        exp_avg, exp_avg_sq = torch.zeros(N), torch.zeros(N)
    else:
        exp_avg = 0.1 * torch.randn(N, generator=gen)
        exp_avg_sq = (0.1 * torch.randn(N, generator=gen)) ** 2 + exp_avg ** 2
    grad = place(grad, dtype_of(case["dtype"]), device, case.get("layout", "contiguous"))
    return (param.to(device), grad, exp_avg.to(device), exp_avg_sq.to(device), int(h["step"]),
            float(h["lr"]), float(h["beta1"]), float(h["beta2"]), float(h["eps"]), float(h["weight_decay"]))


def reference(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay):
    """torch.optim.AdamW's update (decoupled weight decay, bias-corrected moments), float64:
    p *= 1 - lr*wd; m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g^2;
    p -= lr/(1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)."""
    d = torch.float64
    p, g, m, v = param.to(d), grad.to(d), exp_avg.to(d), exp_avg_sq.to(d)
    p = p * (1.0 - lr * weight_decay)
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    step_size = lr / (1.0 - beta1 ** step)
    denom = v.sqrt() / math.sqrt(1.0 - beta2 ** step) + eps
    p = p - step_size * m / denom
    return torch.stack([p, m, v])


_STEPS = {}


def baseline(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay):
    """torch's fused AdamW (torch.optim.AdamW(fused=True) runs this op), in place on the
    judge's copies. It wants float32 grads for float32 params: a float16/bfloat16 grad is
    cast first, as an AMP training loop does before an fp32 optimizer step."""
    key = (param.device, step)
    if key not in _STEPS:
        _STEPS[key] = torch.tensor(float(step), device=param.device)
    g = grad if grad.dtype == torch.float32 else grad.float()
    torch._fused_adamw_([param], [g], [exp_avg], [exp_avg_sq], [], [_STEPS[key]], lr=lr, beta1=beta1,
                        beta2=beta2, weight_decay=weight_decay, eps=eps, amsgrad=False, maximize=False)
    return param


def output_dtype(*inputs):
    return torch.float32


def bytes_moved(case):
    """Read param, exp_avg, exp_avg_sq (float32) and grad; write the three float32 results:
    (24 + grad itemsize) * N."""
    (N,) = case["shape"]
    return (24 + torch.empty((), dtype=dtype_of(case["dtype"])).element_size()) * N


def flops(case):
    """Decay, two moment updates, sqrt, scale, add eps, divide, update: about 14 per element."""
    (N,) = case["shape"]
    return 14 * N
