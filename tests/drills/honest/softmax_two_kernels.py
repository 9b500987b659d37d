"""softmax, honest: two kernels (row statistics, then normalise) and a float32 scratch buffer."""
import torch
import triton
import triton.language as tl


@triton.jit
def stats_kernel(x_ptr, m_ptr, s_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    tl.store(m_ptr + row, m)
    tl.store(s_ptr + row, tl.sum(tl.exp(x - m), axis=0))


@triton.jit
def normalise_kernel(x_ptr, m_ptr, s_ptr, y_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
    y = tl.exp(x - tl.load(m_ptr + row)) / tl.load(s_ptr + row)
    tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=cols < N)


def softmax(x):
    x = x.contiguous()
    rows, n = x.shape
    block = triton.next_power_of_2(n)
    m = torch.empty(rows, dtype=torch.float32, device=x.device)
    s = torch.empty(rows, dtype=torch.float32, device=x.device)
    y = torch.empty_like(x)
    stats_kernel[(rows,)](x, m, s, n, x.stride(0), BLOCK=block)
    normalise_kernel[(rows,)](x, m, s, y, n, x.stride(0), BLOCK=block)
    return y
