"""Personal drills: a bench (kernel + spec) saved as a drill in the user's data folder.

`save_as_drill` writes an ordinary drill folder (kernels/README.md's format) under
`<data dir>/my-drills/<id>/`: the statement, starters with the kernel's signature, the
user's kernel as the reference solution, a copy of the bench spec, and a `spec.py` that
serves the spec to the judge. The smallest sizes become the cases checked everywhere, the
others GPU cases, and the whole sweep the benchmark. The Drills pane lists these under
"My drills" with everything a drill has (countdown, attempts, personal best).

No torch here: the spec's `sizes`, `dtypes` and `tolerances` are read from its source as
literals (the Bench pane's form writes them so); a spec that computes them is refused with
a message saying so.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import yaml

from studio import paths
from studio.drills.catalog import DTYPES, DrillError, DrillSpec, load_drill

SPEC_ADAPTER = '''"""Serves this drill's bench spec (bench.py, a copy of the user's) to the judge."""
from pathlib import Path

from studio.drills.harness.bench_spec import load

_problem = load(Path(__file__).with_name("bench.py"))
make_inputs = _problem.make_inputs
reference = _problem.reference
output_dtype = _problem.output_dtype
baseline = _problem.baseline
baselines = _problem.baselines
bytes_moved = _problem.bytes_moved
flops = _problem.flops
'''


def my_drills_dir() -> Path:
    return paths.data_dir() / "my-drills"


def _literal(tree: ast.Module, name: str, default=None):
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                raise DrillError(f"`{name}` in the bench spec must be written as a literal to save it as a drill") from None
    return default


def _signature(kernel_source: str, func: str) -> str:
    tree = ast.parse(kernel_source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == func:
            return f"{func}({ast.unparse(node.args)})"
    raise DrillError(f"no function {func}() in the kernel file")


def drill_id_for(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40] or "drill"
    return f"my-{slug}"


def save_as_drill(kernel: Path, func: str, spec: Path, title: str, statement: str,
                  time_limit_min: int = 30, difficulty: str = "medium") -> DrillSpec:
    """Write the drill folder and return it as loaded by the catalogue (checked)."""
    kernel, spec = Path(kernel), Path(spec)
    source = kernel.read_text(encoding="utf-8")
    spec_source = spec.read_text(encoding="utf-8")
    try:
        tree = ast.parse(spec_source)
    except SyntaxError as exc:
        raise DrillError(f"{spec}:{exc.lineno}: syntax error: {exc.msg}") from exc
    sizes = [list(s) if isinstance(s, (tuple, list)) else [s] for s in _literal(tree, "sizes", [])]
    dtypes = [d for d in _literal(tree, "dtypes", ["float32"]) if d in DTYPES]
    if not sizes or not dtypes:
        raise DrillError("the bench spec needs literal `sizes` and at least one of float32/float16/bfloat16 in `dtypes`")
    given = _literal(tree, "tolerances", {}) or {}
    defaults = {"float32": (1e-5, 1e-4), "float16": (1e-3, 1e-2), "bfloat16": (1e-2, 2e-2)}
    tolerances = {d: dict(zip(("atol", "rtol"), map(float, given.get(d, defaults[d])))) for d in dtypes}
    by_size = sorted(sizes, key=lambda s: eval_numel(s))
    small, large = by_size[:2], by_size[2:]
    cases = [{"name": f"{'x'.join(map(str, s))}-{d}", "shape": s, "dtype": d} for d in dtypes for s in small]
    gpu_cases = [{"name": f"{'x'.join(map(str, s))}-{d}", "shape": s, "dtype": d} for d in dtypes for s in large]
    drill_id = drill_id_for(title)
    folder = my_drills_dir() / drill_id
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    signature = _signature(source, func)
    has_flops = any(isinstance(n, ast.FunctionDef) and n.name == "flops" for n in tree.body)
    data = {"id": drill_id, "title": title, "difficulty": difficulty, "time_limit_min": int(time_limit_min),
            "tags": ["mine"], "metric": "tflops" if has_flops and not any(
                isinstance(n, ast.FunctionDef) and n.name == "bytes_moved" for n in tree.body) else "gbps",
            "entry": func, "signature": signature, "trials": 2, "tolerances": tolerances,
            "cases": cases, "gpu_cases": gpu_cases, "bench": {"shapes": sizes, "dtypes": dtypes}}
    (folder / "drill.yaml").write_text("# A personal drill saved from the Bench pane.\n"
                                       + yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    sizes_text = ", ".join("x".join(map(str, s)) for s in sizes)
    (folder / "statement.md").write_text(
        f"# {title}\n\n{statement.strip()}\n\nImplement `{signature}`. Checked at {sizes_text} in "
        f"{', '.join(dtypes)} against the reference of the bench spec, then timed.\n", encoding="utf-8")
    stub = f"def {signature}:\n    raise NotImplementedError(\"write the kernel here\")\n"
    (folder / "starter_triton.py").write_text("import torch\nimport triton\nimport triton.language as tl\n\n\n" + stub,
                                              encoding="utf-8")
    (folder / "starter_torch.py").write_text("import torch\n\n\n" + stub, encoding="utf-8")
    shutil.copy(kernel, folder / "solution.py")
    shutil.copy(spec, folder / "bench.py")
    (folder / "spec.py").write_text(SPEC_ADAPTER, encoding="utf-8")
    loaded = load_drill(folder)
    if not loaded.ok:
        raise DrillError(f"the saved drill does not load: {loaded.error}")
    loaded.personal = True
    return loaded


def eval_numel(size: list[int]) -> int:
    total = 1
    for v in size:
        total *= int(v)
    return total
