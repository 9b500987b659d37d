"""embedding_backward with load-add-store instead of atomics: a block of tokens per program;
duplicate ids in one block (or two programs at once) lose updates."""
import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < total)


@triton.jit
def scatter_kernel(out_ptr, g_ptr, idx_ptr, idx_stride, N, D, sgn, sgd,
                   BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    i = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    m = (i < N)[:, None] & (cols < D)[None, :]
    row = tl.load(idx_ptr + i * idx_stride, mask=i < N, other=0)
    g = tl.load(g_ptr + i[:, None] * sgn + cols[None, :] * sgd, mask=m, other=0.0).to(tl.float32)
    ptrs = out_ptr + row[:, None] * D + cols[None, :]
    tl.store(ptrs, tl.load(ptrs, mask=m) + g, mask=m)


def embedding_backward(idx, grad_out, vocab_size):
    n, d = grad_out.shape
    out = torch.empty((vocab_size, d), dtype=torch.float32, device=grad_out.device)
    zero_kernel[(triton.cdiv(vocab_size * d, 1024),)](out, vocab_size * d, BLOCK=1024)
    if n:
        scatter_kernel[(triton.cdiv(n, 16), triton.cdiv(d, 128))](
            out, grad_out, idx, idx.stride(0), n, d, grad_out.stride(0), grad_out.stride(1),
            BLOCK_N=16, BLOCK_D=128)
    return out
