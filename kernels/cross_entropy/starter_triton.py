"""Cross-entropy forward in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run cross_entropy path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_m, stride_v,
                         ignore_index, BLOCK_V: tl.constexpr):
    """Suggested shape: one program per row; stream the vocabulary in BLOCK_V chunks with an
    online logsumexp (running max + rescaled running sum), then subtract the target logit.
    """
    pass


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100) -> torch.Tensor:
    """Return the per-row loss: logsumexp(logits[i]) - logits[i, target[i]], 0 where
    target[i] == ignore_index.

    logits: 2-D (rows, vocab), float32 / float16 / bfloat16, possibly non-contiguous;
    target: int64 (rows,). Returns a new float32 (rows,) tensor. Do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("cross_entropy: allocate the output and launch your Triton kernel")
