"""layernorm, honest: chunked Welford mean/variance over each row, then a second pass."""
import torch
import triton
import triton.language as tl


@triton.jit
def welford_layernorm(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    mean = tl.zeros([BLOCK], tl.float32)
    m2 = tl.zeros([BLOCK], tl.float32)
    count = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        new_count = count + mask.to(tl.float32)
        delta = x - mean
        mean = tl.where(mask, mean + delta / tl.maximum(new_count, 1.0), mean)
        m2 = tl.where(mask, m2 + delta * (x - mean), m2)
        count = new_count
    total = tl.sum(count, axis=0)
    row_mean = tl.sum(mean * count, axis=0) / total
    row_m2 = tl.sum(m2 + count * (mean - row_mean) * (mean - row_mean), axis=0)
    rstd = 1.0 / tl.sqrt(row_m2 / total + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - row_mean) * rstd * w + b
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps):
    x = x.contiguous()
    y = torch.empty_like(x)
    welford_layernorm[(x.shape[0],)](x, weight, bias, y, x.shape[1], x.stride(0), eps,
                                     BLOCK=min(1024, triton.next_power_of_2(x.shape[1])))
    return y
