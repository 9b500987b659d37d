"""Writing a bench spec from the Bench pane's form: the common case of 1-4 tensor inputs.

The form gives the sizes, the dtypes, each input's shape as an expression of `size`
(e.g. `size`, `(size[0],)`), the reference as an expression of the inputs `a`, `b`, `c`,
`d`, and whether to add torch.compile of the reference as a baseline. The result is an
ordinary spec file the user can keep editing (contract: harness/bench_spec.py).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

NAMES = ("a", "b", "c", "d")
DTYPES = ("float32", "float16", "bfloat16")


class FormError(ValueError):
    """A form field that cannot become a valid spec; the message names the field."""


@dataclass
class SpecForm:
    sizes: list[tuple[int, ...]]
    dtypes: list[str]
    shapes: list[str] = field(default_factory=lambda: ["size"])  # one expression per input
    reference: str = "a"
    compile_baseline: bool = True


def parse_sizes(text: str) -> list[tuple[int, ...]]:
    """'4096x1024, 4096x4096' (or '1024 4096', or '(4096, 1024)') -> size tuples."""
    if "(" in text:  # Python tuples: "(4096, 1024), (4096, 4096)"
        chunks = ["x".join(part.split(",")) for part in re.findall(r"\(([^()]*)\)", text)]
    else:
        chunks = text.replace(";", ",").split(",")
    sizes = []
    for chunk in chunks:
        chunk = chunk.strip().strip("x").strip()
        if not chunk:
            continue
        parts = chunk.lower().replace("×", "x").replace("*", "x").split("x")
        try:
            dims = tuple(int(p.strip()) for p in parts if p.strip())
        except ValueError:
            raise FormError(f"sizes: {chunk!r} is not a size like 4096x1024") from None
        if not dims or any(d <= 0 for d in dims):
            raise FormError(f"sizes: {chunk!r} has a dimension that is not positive")
        sizes.append(dims)
    if not sizes:
        raise FormError("sizes: give at least one size, e.g. 4096x1024, 4096x4096")
    return sizes


def _check_expression(text: str, what: str, names: set[str]) -> None:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise FormError(f"{what}: {text!r} is not a Python expression ({exc.msg})") from None
    unknown = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - names - {"torch", "math"}
    if unknown:
        raise FormError(f"{what}: unknown name(s) {', '.join(sorted(unknown))} (use {', '.join(sorted(names))})")


def write_spec(form: SpecForm) -> str:
    if not 1 <= len(form.shapes) <= 4:
        raise FormError("inputs: between 1 and 4 tensor inputs")
    if not form.dtypes or any(d not in DTYPES for d in form.dtypes):
        raise FormError(f"dtypes: choose among {', '.join(DTYPES)}")
    for i, shape in enumerate(form.shapes):
        _check_expression(shape, f"shape of input {NAMES[i]}", {"size"})
    args = ", ".join(NAMES[: len(form.shapes)])
    _check_expression(form.reference, "reference", set(NAMES[: len(form.shapes)]))
    made = "\n".join(f"    {NAMES[i]} = torch.randn({shape}, dtype=dtype, device=device)"
                     for i, shape in enumerate(form.shapes))
    baselines = [f'    "torch": lambda {args}: {form.reference},']
    if form.compile_baseline:
        baselines.append(f'    "torch.compile": torch.compile(lambda {args}: {form.reference}),')
    return f'''"""Bench spec written by ML Infra Studio's Bench pane; edit it freely.

The contract: sizes, dtypes, inputs(size, dtype, device), reference(*inputs), and the
optional tolerances, baselines, bytes_moved and flops (README, "Kernel bench").
"""
import torch

sizes = {[tuple(s) for s in form.sizes]!r}
dtypes = {list(form.dtypes)!r}
baselines = {{
{chr(10).join(baselines)}
}}


def inputs(size, dtype, device):
{made}
    return ({args},)


def reference({args}):
    # Computed in float64, returned in the inputs' dtype: the kernel's output is compared with it.
    {", ".join(f"{n}64" for n in NAMES[: len(form.shapes)])} = {", ".join(f"{n}.double()" for n in NAMES[: len(form.shapes)])}
    return ({_rename(form.reference, len(form.shapes))}).to(a.dtype)


def bytes_moved(size, dtype):
    """Every input read once and one output the size of the first input written once."""
    item = torch.empty((), dtype=dtype).element_size()
    shapes = [{", ".join(form.shapes)}]
    numel = [int(torch.Size(s if isinstance(s, tuple) else (s,)).numel()) for s in shapes]
    return (sum(numel) + numel[0]) * item
'''


def _rename(expression: str, count: int) -> str:
    """The reference expression over the float64 copies (a -> a64 ...)."""
    tree = ast.parse(expression, mode="eval")

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in NAMES[:count]:
                return ast.copy_location(ast.Name(id=node.id + "64", ctx=node.ctx), node)
            return node

    return ast.unparse(Rename().visit(tree))


def functions_in(source: str, path: str | Path | None = None) -> list[str]:
    """Top-level function names of a Python file, or the tensor-returning host functions of a
    .cu file, for the pane's function list (nothing is imported or compiled)."""
    from studio.drills.languages import cuda

    if path is not None and Path(path).suffix in cuda.SUFFIXES:
        return cuda.host_functions(source)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
