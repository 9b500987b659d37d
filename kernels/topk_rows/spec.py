"""Row-wise top-k drill: inputs, exact reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). A case's shape is [M, N] of x and its `k`
key the number of indices per row (1 <= k <= min(N, 64); bench points have no k key and
use DEFAULT_K). The answer is an int64 (M, k) tensor of column indices: the k largest
values of each row in descending order, ties (equal values, +0.0 and -0.0 included) in
increasing index order. Compared exactly (tolerances 0): the answer is unique.

Fills (besides the shared ones in studio.drills.harness.inputs):
- ties: values from {-1.5, -1, -0.5, -0.0, 0.0, 0.5, 1, 1.5}: many equal values per row,
  and +0.0 / -0.0 that compare equal but have different bits.
- neg_inf_rows: every other row entirely -inf; the others -inf except a few finite values
  (fewer than k in some rows), so the tail of the answer is -inf ties.
"""

import torch

from studio.drills.harness.inputs import draw, dtype_of, place

DEFAULT_K = 8
MAX_K = 64


def _k(case):
    return int(case.get("k", DEFAULT_K))


def _draw(shape, fill, gen):
    M, N = shape
    if fill == "ties":
        levels = torch.tensor([-1.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5])
        return levels[torch.randint(0, len(levels), (M, N), generator=gen)]
    if fill == "neg_inf_rows":
        values = torch.full((M, N), float("-inf"))
        for i in range(1, M, 2):
            few = int(torch.randint(1, max(2, min(N, 6)), (1,), generator=gen))
            cols = torch.randperm(N, generator=gen)[:few]
            values[i, cols] = torch.randn(few, generator=gen)
        return values
    return draw([M, N], fill, gen)


def make_inputs(case, gen, device):
    M, N = case["shape"]
    k = _k(case)
    if not 1 <= k <= min(N, MAX_K):
        raise ValueError(f"k = {k} must be in [1, min(N, {MAX_K})]")
    values = _draw([M, N], case.get("fill", "randn"), gen)
    return place(values, dtype_of(case["dtype"]), device, case.get("layout", "contiguous")), k


def reference(x, k):
    """A stable descending sort keeps equal values in index order; +0.0 == -0.0 there."""
    order = torch.sort(x.detach().to(torch.float64), dim=-1, descending=True, stable=True).indices
    return order[:, :k].contiguous()


def baseline(x, k):
    return torch.topk(x, k, dim=-1, largest=True, sorted=True).indices


def output_dtype(x, k):
    return torch.int64


def bytes_moved(case):
    """Read x once (M * N * itemsize), write the indices (M * k * 8)."""
    M, N = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return M * N * itemsize + M * _k(case) * 8
