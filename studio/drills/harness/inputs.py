"""Input generators shared by drill specs (kernels/<id>/spec.py).

A test case in drill.yaml names a shape, a dtype, a `fill` (how values are drawn) and a
`layout` (how they sit in memory). Values are drawn in float32 on the CPU from a seeded
generator, so a seed means the same numbers on every device, then cast and moved.

Fills:   randn | huge (1000 + 10*randn: softmax must subtract the row max) |
         large_offset (1000 + randn: naive E[x^2]-E[x]^2 loses everything) |
         equal_rows (each row one exactly representable value) |
         neg_inf (about 1 in 8 entries -inf, never a whole row)
Layouts: contiguous | strided_rows (row stride > N) | transposed (a .t() view, column
         stride > 1) | strided (1-D, every other element)
"""

from __future__ import annotations

from typing import Any

import torch

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
FILLS = ("randn", "huge", "large_offset", "equal_rows", "neg_inf")
LAYOUTS = ("contiguous", "strided_rows", "transposed", "strided")


def dtype_of(name: str) -> torch.dtype:
    return DTYPES[name]


def draw(shape: list[int], fill: str, gen: torch.Generator) -> torch.Tensor:
    """float32 CPU values of `shape` drawn as `fill` says."""
    if fill == "randn":
        return torch.randn(shape, generator=gen)
    if fill == "huge":
        return 1000.0 + 10.0 * torch.randn(shape, generator=gen)
    if fill == "large_offset":
        return 1000.0 + torch.randn(shape, generator=gen)
    if fill == "equal_rows":
        rows = shape[0] if len(shape) > 1 else 1
        levels = torch.randint(-8, 9, (rows, 1), generator=gen).float() / 4.0
        levels[levels == 0] = 0.25
        return levels.expand(rows, shape[-1]).reshape(shape).clone()
    if fill == "neg_inf":
        values = torch.randn(shape, generator=gen)
        holes = torch.rand(shape, generator=gen) < 0.125
        hole_rows = holes.view(-1, shape[-1])
        keep = torch.randint(0, shape[-1], (hole_rows.shape[0],), generator=gen)
        hole_rows[torch.arange(hole_rows.shape[0]), keep] = False
        values[holes] = float("-inf")
        return values
    raise ValueError(f"unknown fill {fill!r} (use one of {FILLS})")


def place(values: torch.Tensor, dtype: torch.dtype, device: Any, layout: str) -> torch.Tensor:
    """Cast and move `values`, laid out in memory as `layout` says (same logical tensor)."""
    values = values.to(dtype)
    if layout == "contiguous":
        return values.to(device)
    if layout == "strided_rows":
        rows, cols = values.shape
        base = torch.zeros(rows, cols + 3, dtype=dtype, device=device)
        base[:, :cols] = values.to(device)
        return base[:, :cols]
    if layout == "transposed":
        return values.t().contiguous().to(device).t()
    if layout == "strided":
        base = torch.zeros(values.numel() * 2, dtype=dtype, device=device)
        base[::2] = values.reshape(-1).to(device)
        return base[::2].view(values.shape)
    raise ValueError(f"unknown layout {layout!r} (use one of {LAYOUTS})")


def case_tensor(case: dict, gen: torch.Generator, device: Any) -> torch.Tensor:
    """The main input tensor of a test case: shape, dtype, fill and layout from the case."""
    values = draw(list(case["shape"]), case.get("fill", "randn"), gen)
    return place(values, dtype_of(case["dtype"]), device, case.get("layout", "contiguous"))


def param_vector(n: int, dtype: torch.dtype, gen: torch.Generator, device: Any,
                 center: float = 0.0, scale: float = 1.0) -> torch.Tensor:
    """A 1-D parameter (weight, bias): never all ones or zeros, which hide mistakes."""
    return (center + scale * torch.randn(n, generator=gen)).to(dtype).to(device)
