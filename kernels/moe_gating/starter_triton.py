"""MoE top-k gating in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run moe_gating path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def route_kernel(x_ptr, out_ptr, T, E, K, stride_t, stride_e,
                 BLOCK_T: tl.constexpr, E_PAD: tl.constexpr, K_PAD: tl.constexpr):
    """Suggested shape: a program per BLOCK_T tokens holds their [BLOCK_T, E_PAD] logits;
    softmax in float32; K rounds of (max, lowest column holding it, mask it out); store
    weights and ids; count each expert's slots in this block for the later stages."""
    pass


def moe_gating(logits: torch.Tensor, k: int, renormalize: bool) -> torch.Tensor:
    """Return one float32 vector [weights | ids | counts | offsets | perm] (3*T*k + 2*E + 1).

    logits: [T, E] float32 / float16 / bfloat16, possibly strided or transposed.
    weights [T*k]: softmax probabilities of each token's k best experts, best first
      (divided by their sum when renormalize). ids [T*k]: those experts (equal logits:
      lower id first). counts [E]: slots per expert. offsets [E+1]: exclusive prefix of
      counts. perm [T*k]: the slots t*k + j grouped by expert, ascending within an expert.
    Do not modify logits.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("moe_gating: allocate the output and launch your Triton kernels")
