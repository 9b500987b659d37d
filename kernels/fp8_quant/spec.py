"""Per-token FP8 quantisation drill: inputs, float64 reference, torch baseline, bytes model.

Runs in the drill child only (imports torch). A case's shape is [M, N] of x (M tokens,
N hidden). The solution returns q, an (M, N) torch.float8_e4m3fn tensor with

    s[i] = max(max_j |x[i, j]| / 448, 1 / (448 * 512))
    q[i, j] = round_to_e4m3(clamp(x[i, j] / s[i], -448, 448))

The reference is the unrounded x / s (float64): q is compared with it at rtol 2^-4
(half an e4m3 step, with a little room for the float32 scale) and atol 2^-10 (half the
e4m3 subnormal step 2^-9). An exact bit check would be unfair: a GPU's float32 division
may be approximate, and bf16 inputs land on exact ties between e4m3 values.

Extra key `kind` (default randn): randn; zero_rows (every other row all zeros: the scale
floor 1 / (448 * 512) must avoid 0 / 0); spike (one value per row 1e4 times the rest, so
the others quantise to e4m3 subnormals or 0); tiny (values around 1e-6 * randn: float16
subnormals in an fp16 case, all rows on the scale floor). `fill` is honoured for randn.
"""

import torch

from studio.drills.harness.inputs import draw, dtype_of, place

FP8_MAX = 448.0
MIN_SCALE = 1.0 / (FP8_MAX * 512.0)


def make_inputs(case, gen, device):
    M, N = case["shape"]
    kind = case.get("kind", "randn")
    if kind == "randn":
        values = draw([M, N], case.get("fill", "randn"), gen)
    elif kind == "zero_rows":
        values = torch.randn(M, N, generator=gen)
        values[::2] = 0.0
    elif kind == "spike":
        values = torch.randn(M, N, generator=gen)
        col = torch.randint(0, N, (M,), generator=gen)
        sign = torch.where(torch.rand(M, generator=gen) < 0.5, -1.0, 1.0)
        values[torch.arange(M), col] = sign * 1.0e4
    elif kind == "tiny":
        values = 1.0e-6 * torch.randn(M, N, generator=gen)
    else:
        raise ValueError(f"unknown kind {kind!r} (randn, zero_rows, spike, tiny)")
    return (place(values, dtype_of(case["dtype"]), device, case.get("layout", "contiguous")),)


def scales(x):
    """s per row, float64, shape (M, 1)."""
    amax = x.to(torch.float64).abs().amax(dim=1, keepdim=True)
    return (amax / FP8_MAX).clamp_min(MIN_SCALE)


def reference(x):
    """The unrounded x / s, clamped to [-448, 448] (only float32 rounding could pass it), float64."""
    return (x.to(torch.float64) / scales(x)).clamp_(-FP8_MAX, FP8_MAX)


def baseline(x):
    """vLLM's per-token dynamic quantisation written in eager torch: amax, scale, divide,
    clamp, cast (torch's cast to float8_e4m3fn rounds to nearest even and saturates)."""
    xf = x.float()
    s = (xf.abs().amax(dim=1, keepdim=True) / FP8_MAX).clamp_min(MIN_SCALE)
    return (xf / s).clamp(-FP8_MAX, FP8_MAX).to(torch.float8_e4m3fn)


def output_dtype(x):
    return torch.float8_e4m3fn


def bytes_moved(case):
    """Read x once and write q (one byte an element): M * N * (itemsize + 1)."""
    M, N = case["shape"]
    itemsize = torch.empty((), dtype=dtype_of(case["dtype"])).element_size()
    return M * N * (itemsize + 1)


def flops(case):
    """Counted as 3 per element: |x| and the max, the multiply by 1 / s, the clamp."""
    M, N = case["shape"]
    return 3 * M * N
