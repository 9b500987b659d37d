"""layernorm_backward that stores each row's dy * xhat and dy into the dweight / dbias rows
instead of summing them over the rows: the last row written wins. Right for a single row,
wrong as soon as M > 1. (One program walks every row, to keep the interpreter quick.)"""
import torch
import triton
import triton.language as tl


@triton.jit
def row_kernel(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, out_ptr, M, N,
               sdm, sdn, sxm, sxn, BLOCK_N: tl.constexpr):
    cols = tl.arange(0, BLOCK_N)
    ok = cols < N
    w = tl.load(w_ptr + cols, mask=ok, other=0.0).to(tl.float32)
    ty = out_ptr.dtype.element_ty
    for row in range(0, M):
        x = tl.load(x_ptr + row * sxm + cols * sxn, mask=ok, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * sdm + cols * sdn, mask=ok, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        xhat = tl.where(ok, (x - mean) * rstd, 0.0)
        g = w * dy
        dx = (g - tl.sum(g, 0) / N - xhat * (tl.sum(g * xhat, 0) / N)) * rstd
        tl.store(out_ptr + row * N + cols, dx.to(ty), mask=ok)
        tl.store(out_ptr + M * N + cols, (dy * xhat).to(ty), mask=ok)        # overwrites
        tl.store(out_ptr + (M + 1) * N + cols, dy.to(ty), mask=ok)           # overwrites


def layernorm_backward(dy, x, weight, mean, rstd):
    M, N = x.shape
    out = torch.empty((M + 2, N), dtype=x.dtype, device=x.device)
    row_kernel[(1,)](dy, x, weight, mean, rstd, out, M, N, dy.stride(0), dy.stride(1),
                     x.stride(0), x.stride(1), BLOCK_N=triton.next_power_of_2(N))
    return out
