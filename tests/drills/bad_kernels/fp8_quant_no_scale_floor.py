"""fp8_quant with s = amax / 448 and no floor: an all-zero row divides 0 by 0."""
import torch
import triton
import triton.language as tl


@triton.jit
def quant_kernel(x_ptr, q_ptr, N, stride_m, stride_n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_m + cols * stride_n, mask=mask, other=0.0).to(tl.float32)
    s = tl.max(tl.abs(x), axis=0) / 448.0
    v = x / s
    e = (tl.abs(v).to(tl.int32, bitcast=True) >> 23) & 0xFF
    c = ((tl.maximum(e, 121) - 3) << 23).to(tl.float32, bitcast=True) * 12582912.0
    v = (v + c) - c
    tl.store(q_ptr + row * N + cols, v.to(q_ptr.dtype.element_ty), mask=mask)


def fp8_quant(x):
    M, N = x.shape
    q = torch.empty((M, N), dtype=torch.float8_e4m3fn, device=x.device)
    quant_kernel[(M,)](x, q, N, x.stride(0), x.stride(1), BLOCK=triton.next_power_of_2(N))
    return q
