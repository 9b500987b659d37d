"""Fused AdamW in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives: torch's own AdamW/Adam kernels (torch._fused_adamw_,
torch.optim) are flagged.
Run it:  studio-drill run fused_adamw path/to/this_file.py --lang torch
"""

import torch


def fused_adamw(param: torch.Tensor, grad: torch.Tensor, exp_avg: torch.Tensor, exp_avg_sq: torch.Tensor,
                step: int, lr: float, beta1: float, beta2: float, eps: float,
                weight_decay: float) -> torch.Tensor:
    """Return one AdamW step as a new [3, N] float32 tensor: rows new param, exp_avg, exp_avg_sq.

    param, exp_avg, exp_avg_sq: [N] float32. grad: [N] float32 / float16 / bfloat16, possibly
    strided. step: this update's step number t (>= 1). Do not modify the inputs.
    """
    raise NotImplementedError("fused_adamw: write it with torch primitives")
