"""Int4 weight-only matmul in PyTorch: your solution (see the statement for the rules).

Build it from torch primitives: unpack the nibbles (bitwise ops), sign-extend, scale each
group of 128 rows, then torch.matmul (flagged in a Triton solution only).
Run it:  studio-drill run int4_wo_matmul path/to/this_file.py --lang torch
"""

import torch


def int4_wo_matmul(x: torch.Tensor, w: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """Return y = x @ W with W[k, n] = q[k, n] * scales[k // 128, n].

    x: [M, K] float16 / bfloat16 (float32 also checked), possibly strided rows; K % 128 == 0.
    w: uint8 [K // 2, N], any strides; byte w[j, n] holds q[2j, n] in bits 0-3 and
       q[2j + 1, n] in bits 4-7, each a signed (two's complement) int4 in [-8, 7].
    scales: [K // 128, N], x's dtype. Returns a new [M, N] tensor of x's dtype.
    Do not modify the inputs.
    """
    raise NotImplementedError("int4_wo_matmul: write it with torch primitives")
