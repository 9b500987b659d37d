"""Matrix multiply in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives; torch.matmul / @ (flagged in a Triton solution).
Run it:  studio-drill run matmul path/to/this_file.py --lang torch
"""

import torch


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Return C = a @ b.

    a: [M, K], b: [K, N], one dtype (float16 / bfloat16; float32 also checked), any strides
       (b may be the .t() view of an nn.Linear weight). Accumulate in float32.
    Returns a new [M, N] tensor of a's dtype on a's device. Do not modify the inputs.
    """
    raise NotImplementedError("matmul: write it with torch primitives")
