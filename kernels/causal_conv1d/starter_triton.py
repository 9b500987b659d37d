"""Causal depthwise conv1d (+ SiLU) in Triton: your solution (see the statement for the rules).

Run it:  studio-drill run causal_conv1d path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def causal_conv1d_kernel(x_ptr, w_ptr, b_ptr, y_ptr, D, L,
                         stride_xb, stride_xd, stride_xl, stride_wd, stride_wk,
                         K: tl.constexpr, ACTIVATION: tl.constexpr,
                         BLOCK_D: tl.constexpr, BLOCK_L: tl.constexpr):
    """Suggested shape: a grid over (time blocks, channel blocks, batch); each program owns a
    [BLOCK_D, BLOCK_L] tile. Start from the bias, then for each tap k (tl.static_range(K))
    load x at times t - (K-1) + k, masked so negative times read 0, and accumulate
    weight[d, k] * x in float32. SiLU if ACTIVATION; masked store to the contiguous output.
    """
    pass


def causal_conv1d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                  activation: bool) -> torch.Tensor:
    """Return out[b, d, t] = bias[d] + sum_k weight[d, k] * x[b, d, t - (K-1) + k] (x = 0 at
    negative times), then silu(out) = out * sigmoid(out) if activation.

    x: (B, D, L), float32 / float16 / bfloat16, any strides (padded rows, a channels-last
    view). weight: (D, K), K in {2, 3, 4}; bias: (D,); both of x's dtype.
    Returns a new contiguous (B, D, L) tensor of x's dtype; compute in float32.
    Do not modify the inputs.

    Tensors are on the GPU (on the CPU when the drill runs in Triton's interpreter).
    """
    raise NotImplementedError("causal_conv1d: allocate the output and launch your Triton kernel")
