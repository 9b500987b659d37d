"""fused_adamw with Adam's L2 weight decay (wd * p added to the gradient, then through m and
v) instead of AdamW's decoupled decay: right only when weight_decay is 0.

Right there to the drill's few-ulp tolerance on a GPU too: 1 - beta1 and 1 - beta2 come from
the host in float64 (on the device, 1 - float32(0.999) is 1.3e-5 off in relative terms), and
the square root and division are the correctly rounded ones, as in the reference solution.
With those computed on the device the weight_decay=0 case missed the tolerance on the H200
(call 51: first bad element in v, max rel err 8.5e-5), so the fixture failed where it is
meant to pass."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def adam_l2_kernel(p_ptr, g_ptr, m_ptr, v_ptr, out_ptr, N, stride_g, wd, beta1, one_minus_beta1, beta2,
                   one_minus_beta2, step_size, inv_sqrt_bc2, eps, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    g = tl.load(g_ptr + offs * stride_g, mask=mask, other=0.0).to(tl.float32)
    g = g + wd * p                                            # L2: coupled with the moments
    m = beta1 * tl.load(m_ptr + offs, mask=mask, other=0.0) + one_minus_beta1 * g
    v = beta2 * tl.load(v_ptr + offs, mask=mask, other=0.0) + one_minus_beta2 * g * g
    p = p - step_size * tl.div_rn(m, tl.sqrt_rn(v) * inv_sqrt_bc2 + eps)
    tl.store(out_ptr + offs, p, mask=mask)
    tl.store(out_ptr + N + offs, m, mask=mask)
    tl.store(out_ptr + 2 * N + offs, v, mask=mask)


def fused_adamw(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay):
    N = param.shape[0]
    out = torch.empty((3, N), dtype=torch.float32, device=param.device)
    adam_l2_kernel[(triton.cdiv(N, 1024),)](
        param, grad, exp_avg, exp_avg_sq, out, N, grad.stride(0), weight_decay, beta1, 1.0 - beta1, beta2, 1.0 - beta2,
        lr / (1.0 - beta1 ** step), 1.0 / math.sqrt(1.0 - beta2 ** step), eps, BLOCK=1024)
    return out
