"""A deliberately uncoalesced softmax, for the Nsight Compute profile (bench/ncu_gpu.sh).

Correct, and slow on purpose: each thread owns a row and walks it one column at a time, so
the 32 lanes of a warp load 32 addresses one row apart (N * itemsize bytes). Every load
request touches 32 different 32-byte sectors and uses 4 bytes of each, and the row is read
twice (a max/sum pass, then the write pass). Set beside kernels/softmax/solution.py, the
profile should tell them apart by sectors per request, bytes used per sector, L1/L2 traffic
and the verdict, not just by time.

    studio-drill profile softmax bench/ncu_softmax_strided.py --size 4096x1024 --dtype float32
"""

import torch
import triton
import triton.language as tl

ROWS_PER_PROGRAM = 32     # one warp: a lane per row


@triton.jit
def softmax_strided_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                           BLOCK_R: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    live = rows < M
    x_rows = x_ptr + rows.to(tl.int64) * stride_xm
    row_max = tl.full([BLOCK_R], -float("inf"), tl.float32)
    row_sum = tl.zeros([BLOCK_R], tl.float32)
    for c in range(0, N):                      # pass 1: online max and sum, one column per step
        x = tl.load(x_rows + c * stride_xn, mask=live, other=-float("inf")).to(tl.float32)
        new_max = tl.maximum(row_max, x)
        seen = new_max > -float("inf")
        row_sum = tl.where(seen, row_sum * tl.exp(row_max - new_max) + tl.exp(x - new_max), 0.0)
        row_max = new_max
    inv_sum = 1.0 / row_sum
    y_rows = y_ptr + rows.to(tl.int64) * stride_ym
    for c in range(0, N):                      # pass 2: the row again, column by column
        x = tl.load(x_rows + c * stride_xn, mask=live, other=-float("inf")).to(tl.float32)
        tl.store(y_rows + c, (tl.exp(x - row_max) * inv_sum).to(y_ptr.dtype.element_ty), mask=live)


def softmax(x: torch.Tensor) -> torch.Tensor:
    assert x.ndim == 2, "expected a 2-D tensor"
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_strided_kernel[(triton.cdiv(M, ROWS_PER_PROGRAM),)](
        x, y, M, N, x.stride(0), x.stride(1), y.stride(0), BLOCK_R=ROWS_PER_PROGRAM, num_warps=1)
    return y
