"""Fused AdamW in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run fused_adamw path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def adamw_kernel(p_ptr, g_ptr, m_ptr, v_ptr, out_ptr, N, stride_g,
                 decay, beta1, beta2, step_size, inv_sqrt_bc2, eps, BLOCK: tl.constexpr):
    """Suggested shape: 1-D blocks of BLOCK elements. Load p, g (any dtype: to float32), m, v;
    update m and v, then p; store the new p, m, v at out[0], out[1], out[2] (rows of N)."""
    pass


def fused_adamw(param: torch.Tensor, grad: torch.Tensor, exp_avg: torch.Tensor, exp_avg_sq: torch.Tensor,
                step: int, lr: float, beta1: float, beta2: float, eps: float,
                weight_decay: float) -> torch.Tensor:
    """Return one AdamW step as a new [3, N] float32 tensor: rows new param, exp_avg, exp_avg_sq.

    param, exp_avg, exp_avg_sq: [N] float32, contiguous. grad: [N] float32 / float16 /
    bfloat16, possibly strided. step: this update's step number t (>= 1, already counted).
    torch.optim.AdamW's math (decoupled weight decay, bias correction). Do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("fused_adamw: allocate the output and launch your Triton kernel")
