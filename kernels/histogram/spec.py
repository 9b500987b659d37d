"""Histogram drill: inputs, exact reference, torch baseline and the bytes model.

Runs in the drill child only (imports torch). A case's shape is [n] (x is 1-D) and its
`bins` key the number of bins (default 256: bench points have no bins key). Values are
drawn in float32 on the CPU from the seeded generator, then cast to the case's dtype and
laid out by the shared `place` (contiguous or `strided`). Fills:

- uniform (also `randn`, what bench points ask for): torch.rand, i.e. [0, 1). Casting to
  float16 / bfloat16 rounds some values near 1 up to exactly 1.0 (last bin).
- one_bin: every value inside one randomly chosen bin, away from its edges: all the
  increments hit one counter (maximal atomic contention).
- edges: uniform, with about one value in four replaced by an edge value: k/bins for
  random k, rounded to float32 and moved by up to 2 ulps either way, or one of 0, -0.0,
  1.0, the largest float below 1, slightly negative values, values > 1, 1e30 (+-inf
  once cast to float16).

The answer: b(v) = floor(float32(v) * bins), the product rounded to float32, clamped to
[0, bins - 1]; counts[b] = number of elements with bin b, as int32.
"""

import torch

from studio.drills.harness.inputs import dtype_of, place

DEFAULT_BINS = 256


def _bins(case):
    return int(case.get("bins", DEFAULT_BINS))


def _draw(n, fill, bins, gen):
    if fill in ("uniform", "randn"):
        return torch.rand(n, generator=gen)
    if fill == "one_bin":
        b = int(torch.randint(0, bins, (1,), generator=gen))
        return (b + 0.25 + 0.5 * torch.rand(n, generator=gen)) / bins
    if fill == "edges":
        values = torch.rand(n, generator=gen)
        # k/bins rounded to float32, then moved by -2..2 ulps: the values a kernel that
        # divides by the bin width (or multiplies in another precision) puts in another bin.
        k = torch.randint(0, bins + 1, (n,), generator=gen)
        ulps = torch.randint(-2, 3, (n,), generator=gen).to(torch.int32)
        edge = (k.double() / bins).float()
        k = torch.where(k > 0, (edge.view(torch.int32) + ulps).view(torch.float32), edge)
        specials = torch.tensor([0.0, -0.0, 1.0, 1.0 - 2.0 ** -24, 1.0 - 2.0 ** -11, 1.5, 7.0,
                                 -1e-7, -0.3, -5.0, 1e30, -1e30, 65504.0])
        pick = specials[torch.randint(0, len(specials), (n,), generator=gen)]
        kind = torch.randint(0, 8, (n,), generator=gen)
        values = torch.where(kind == 0, k, values)
        return torch.where(kind == 1, pick, values)
    raise ValueError(f"unknown fill {fill!r} for the histogram drill (uniform, one_bin, edges)")


def make_inputs(case, gen, device):
    (n,) = case["shape"]
    bins = _bins(case)
    values = _draw(n, case.get("fill", "uniform"), bins, gen)
    return place(values, dtype_of(case["dtype"]), device, case.get("layout", "contiguous")), bins


def bin_index(x, bins):
    """The bin of every element: floor(float32(x) * bins) in float32, clamped to [0, bins-1]."""
    scaled = x.detach().to("cpu", torch.float32) * torch.tensor(float(bins), dtype=torch.float32)
    return torch.floor(scaled).clamp_(0, bins - 1).to(torch.int64)


def reference(x, bins):
    counts = torch.zeros(bins, dtype=torch.float64)
    counts.index_add_(0, bin_index(x, bins), torch.ones(x.numel(), dtype=torch.float64))
    return counts.to(x.device)


def baseline(x, bins):
    # torch.histc drops values outside [min, max] where this drill clamps them; bench inputs
    # are all in [0, 1] (exactly 1.0 lands in the last bin in both), so the timing compares
    # like with like.
    # histc has no bfloat16 kernel: bf16 and fp16 inputs are binned as float32, which is
    # also how this drill defines their bins (bin_index)
    return torch.histc(x if x.dtype in (torch.float32, torch.float64) else x.float(), bins=bins, min=0.0, max=1.0)


def output_dtype(x, bins):
    return torch.int32


def bytes_moved(case):
    """Read x (n * itemsize), write the counts (bins * 4 bytes)."""
    (n,) = case["shape"]
    return n * torch.empty((), dtype=dtype_of(case["dtype"])).element_size() + 4 * _bins(case)


def flops(case):
    """One multiply per element to find its bin (the counting is integer work)."""
    (n,) = case["shape"]
    return n
