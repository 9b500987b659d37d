"""Vector add in Triton: your solution (the warm-up drill; see the statement).

Run it:  studio-drill run vector_add path/to/this_file.py [--bench]
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, stride_x, stride_y, BLOCK: tl.constexpr):
    """Suggested shape: program i handles elements [i * BLOCK, (i + 1) * BLOCK).

    Which of those exist? Mask the loads and the store accordingly.
    """
    pass


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Return x + y.

    x, y: 1-D tensors of the same length and dtype (float32 / float16 / bfloat16), on
    the GPU (on the CPU under Triton's interpreter); either may be strided (x[::2]).
    Returns a new tensor. Do not modify the inputs.
    """
    raise NotImplementedError("add: allocate the output and launch your Triton kernel")
