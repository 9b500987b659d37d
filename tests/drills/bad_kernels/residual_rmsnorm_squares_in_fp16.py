"""residual_rmsnorm that squares h in its own dtype: right for float32 and small values, but
an fp16 h of about 2000 squares to inf (fp16 tops out at 65504), so rstd is 0 and y is 0."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, r_ptr, w_ptr, h_ptr, y_ptr, N, sxm, sxn, srm, srn, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * sxm + cols * sxn, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + row * srm + cols * srn, mask=mask, other=0.0).to(tl.float32)
    h = (x + r).to(h_ptr.dtype.element_ty)
    tl.store(h_ptr + row * N + cols, h, mask=mask)
    sq = h * h                                   # the pitfall: squares in fp16
    rstd = tl.rsqrt(tl.sum(sq.to(tl.float32), axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (h.to(tl.float32) * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def residual_rmsnorm(x, residual, weight, eps):
    M, N = x.shape
    out = torch.empty((2, M, N), dtype=x.dtype, device=x.device)
    kernel[(M,)](x, residual, weight, out[0], out[1], N, x.stride(0), x.stride(1),
                 residual.stride(0), residual.stride(1), eps, BLOCK_N=triton.next_power_of_2(N))
    return out
