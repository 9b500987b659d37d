"""Embedding backward in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run embedding_backward path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def embedding_backward_kernel(out_ptr, g_ptr, idx_ptr, N, D, stride_gn, stride_gd,
                              BLOCK_D: tl.constexpr):
    """Suggested first version (atomic scatter-add): one program per (token i, BLOCK_D
    columns) loads grad_out[i, cols] and tl.atomic_add's it into out[idx[i], cols] (the
    output zeroed first by a kernel of yours). Then make it fast: sort the ids, give each
    output row one program that sums its tokens' rows and stores the row once (zeros for
    an empty row), and split the hot id's long segment across programs.
    """
    pass


def embedding_backward(idx: torch.Tensor, grad_out: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """Return grad_weight (vocab_size, D) float32: row v = sum of grad_out[i] over i with idx[i] == v.

    idx: int64 (N,), ids in [0, vocab_size), any number of repeats, possibly strided; N may
    be 0. grad_out: (N, D) float32 / float16 / bfloat16, possibly strided or a transposed
    view (use both strides). Sum in float32; rows no id points at are 0. Returns a new
    float32 tensor on grad_out's device. Do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("embedding_backward: allocate the output and launch your Triton kernels")
