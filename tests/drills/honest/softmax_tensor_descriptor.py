"""softmax, honest: writes its output through a host-built TMA tensor descriptor (as Hopper
kernels do), where the rows allow one (16-byte aligned), and through pointers elsewhere.
Where it uses one, the kernel is given the descriptor and not the output tensor: the judge
must still see that the kernel wrote the output."""
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

CHUNK = 256          # a TMA box holds at most 256 elements a side


@triton.jit
def softmax_kernel(x_ptr, y, N, stride_x, stride_y, USE_DESC: tl.constexpr, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, CHUNK)
    m = tl.full((CHUNK,), -float("inf"), tl.float32)
    for c in range(0, N, CHUNK):
        x = tl.load(x_ptr + row * stride_x + c + cols, mask=c + cols < N, other=-float("inf")).to(tl.float32)
        m = tl.maximum(m, x)
    row_max = tl.max(m, axis=0)
    s = tl.zeros((CHUNK,), tl.float32)
    for c in range(0, N, CHUNK):
        x = tl.load(x_ptr + row * stride_x + c + cols, mask=c + cols < N, other=-float("inf")).to(tl.float32)
        s += tl.where(c + cols < N, tl.exp(x - row_max), 0.0)
    total = tl.sum(s, axis=0)
    for c in range(0, N, CHUNK):
        x = tl.load(x_ptr + row * stride_x + c + cols, mask=c + cols < N, other=-float("inf")).to(tl.float32)
        p = (tl.exp(x - row_max) / total).to(x_ptr.dtype.element_ty)
        if USE_DESC:      # y is a tensor descriptor
            y.store([row, c], p.reshape(1, CHUNK))                # columns past N are clipped
        else:             # y is a pointer
            tl.store(y + row * stride_y + c + cols, p, mask=c + cols < N)


def softmax(x):
    x = x if x.stride(1) == 1 else x.contiguous()      # the kernel reads columns at stride 1
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    use_desc = (N * y.element_size()) % 16 == 0                  # rows start on 16-byte boundaries
    out = TensorDescriptor(y, [M, N], [y.stride(0), 1], [1, CHUNK]) if use_desc else y
    softmax_kernel[(M,)](x, out, N, x.stride(0), y.stride(0), USE_DESC=use_desc, CHUNK=CHUNK)
    return y
