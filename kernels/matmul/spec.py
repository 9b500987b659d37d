"""Matmul drill: inputs, float64 reference, torch baseline, bytes and flops models.

Runs in the drill child only (imports torch). A case's shape is [M, N, K]: C[M, N] =
A[M, K] @ B[K, N]. A is scaled by 1/sqrt(K) so C stays O(1) whatever K is, which keeps
one tolerance meaningful for every size. Layouts: `contiguous`; `transposed` (B is the
.t() view of a contiguous [N, K] matrix, like an nn.Linear weight); `strided_rows`
(A's rows padded, a slice of a wider buffer).
"""

import math

import torch

from studio.drills.harness.inputs import dtype_of, place


def make_inputs(case, gen, device):
    M, N, K = case["shape"]
    dtype = dtype_of(case["dtype"])
    layout = case.get("layout", "contiguous")
    a = torch.randn(M, K, generator=gen) / math.sqrt(K)
    b = torch.randn(K, N, generator=gen)
    a = place(a, dtype, device, "strided_rows" if layout == "strided_rows" else "contiguous")
    b = place(b, dtype, device, "transposed" if layout == "transposed" else "contiguous")
    return a, b


def reference(a, b):
    return a.to(torch.float64) @ b.to(torch.float64)


def baseline(a, b):
    return torch.matmul(a, b)


def _itemsize(case):
    return torch.empty((), dtype=dtype_of(case["dtype"])).element_size()


def bytes_moved(case):
    """Read A and B once, write C once: (M*K + K*N + M*N) * itemsize (the floor)."""
    M, N, K = case["shape"]
    return (M * K + K * N + M * N) * _itemsize(case)


def flops(case):
    """One multiply and one add per (m, n, k): 2 * M * N * K."""
    M, N, K = case["shape"]
    return 2 * M * N * K
