"""Top-p (nucleus) sampling in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run top_p_sampling path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def top_p_kernel(logits_ptr, p_ptr, u_ptr, out_ptr, V, stride_m, stride_v, BLOCK: tl.constexpr):
    """Suggested shape: one program per row, looping over the vocabulary in BLOCK chunks.
    softmax ranks tokens like their logits: find the nucleus cut and the sampled token by
    comparing logits (or order-preserving int32 keys of them) with thresholds, not by sorting.
    Ties rank by lower token id. Store the token id (int64) at out_ptr + row.
    """
    pass


def top_p_sampling(logits: torch.Tensor, p: torch.Tensor, u: torch.Tensor) -> torch.Tensor:
    """Return ids (M,) int64: for each row, softmax(logits[i]) ranked descending (ties: lower
    id first), the smallest prefix with mass >= p[i] kept (all if none reaches it), and the
    kept token whose interval of the cumulative mass contains u[i] * (kept mass).

    logits: 2-D (M, V), float32 / float16 / bfloat16, possibly strided rows or a transposed
    view. p, u: (M,) float32, 0 < p <= 1, 0 <= u < 1. Do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("top_p_sampling: allocate the output and launch your Triton kernel")
