"""Grouped-GEMM drill: inputs, float64 reference, torch baseline, bytes and flops models.

Runs in the drill child only (imports torch). A case's shape is [M, N, K, E]: x [M, K]
holds the rows of all experts back to back (the tokens after the MoE permutation),
w [E, K, N] one weight per expert, offsets [E + 1] int32 where expert e owns rows
offsets[e] .. offsets[e+1]-1 (offsets[0] = 0, offsets[E] = M). y[rows of e] = x[rows of e]
@ w[e]. x is scaled by 1/sqrt(K) so y stays O(1) whatever K is.

Extra key `counts`: the rows of each expert (E numbers summing to M); without it the rows
are spread at random (a multinomial over skewed expert probabilities, so some experts get
many rows and some few or none).
Layouts: contiguous; `transposed` (w is w_t.transpose(1, 2) of a contiguous [E, N, K]
buffer: nn.Linear's weight layout per expert); `strided_rows` (x's rows padded).
"""

import math

import torch

from studio.drills.harness.inputs import dtype_of, place


def case_counts(case, gen=None):
    M, N, K, E = case["shape"]
    if "counts" in case:
        counts = [int(c) for c in case["counts"]]
        if len(counts) != E or sum(counts) != M or min(counts) < 0:
            raise ValueError(f"case {case.get('name')}: counts must be {E} numbers >= 0 summing to {M}")
        return torch.tensor(counts, dtype=torch.int64)
    probs = torch.rand(E, generator=gen) ** 3 + 1e-3
    picks = torch.multinomial(probs, M, replacement=True, generator=gen) if M else torch.zeros(0, dtype=torch.int64)
    return torch.bincount(picks, minlength=E)


def make_inputs(case, gen, device):
    M, N, K, E = case["shape"]
    dtype = dtype_of(case["dtype"])
    layout = case.get("layout", "contiguous")
    counts = case_counts(case, gen)
    offsets = torch.zeros(E + 1, dtype=torch.int32)
    offsets[1:] = torch.cumsum(counts, 0).to(torch.int32)
    x = torch.randn(M, K, generator=gen) / math.sqrt(K)
    x = place(x, dtype, device, "strided_rows" if layout == "strided_rows" else "contiguous")
    w = torch.randn(E, K, N, generator=gen).to(dtype)
    if layout == "transposed":
        w = w.transpose(1, 2).contiguous().to(device).transpose(1, 2)
    else:
        w = w.to(device)
    return x, w, offsets.to(device)


def reference(x, w, offsets):
    """Each expert's rows times its weight, in float64."""
    M, N = x.shape[0], w.shape[2]
    y = torch.zeros(M, N, dtype=torch.float64, device=x.device)
    bounds = offsets.tolist()
    for e in range(w.shape[0]):
        lo, hi = bounds[e], bounds[e + 1]
        if hi > lo:
            y[lo:hi] = x[lo:hi].to(torch.float64) @ w[e].to(torch.float64)
    return y


def baseline(x, w, offsets):
    """An unfused MoE: one torch.mm per expert with rows (the offsets read on the host)."""
    y = torch.empty(x.shape[0], w.shape[2], dtype=x.dtype, device=x.device)
    bounds = offsets.tolist()
    for e in range(w.shape[0]):
        lo, hi = bounds[e], bounds[e + 1]
        if hi > lo:
            torch.mm(x[lo:hi], w[e], out=y[lo:hi])
    return y


def output_dtype(x, w, offsets):
    return x.dtype


def bytes_moved(case):
    """Read x and every weight once, write y: (M*K + E*K*N + M*N) * itemsize + offsets."""
    M, N, K, E = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return (M * K + E * K * N + M * N) * itemsize + 4 * (E + 1)


def flops(case):
    """2*M*N*K: every row meets one weight."""
    M, N, K, E = case["shape"]
    return 2 * M * N * K
