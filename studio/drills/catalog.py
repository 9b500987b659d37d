"""The drill catalog: reads kernels/<id>/drill.yaml into DrillSpec objects.

A drill is a folder of plain files (see kernels/README.md). This module only reads
metadata and checks it; it never imports torch or triton, so the GUI process can list
drills instantly. The child harness receives the checked spec as JSON
(`DrillSpec.to_request()`) and imports the drill's spec.py itself. A broken drill folder
yields a DrillSpec whose `error` says what is wrong, so one bad folder never hides the
rest of the catalog.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from studio import paths

DIFFICULTIES = ("easy", "medium", "hard")
METRICS = ("gbps", "tflops")
DTYPES = ("float32", "float16", "bfloat16")
LANGS = ("triton", "torch", "cuda")
FILE_DEFAULTS = {
    "statement": "statement.md",
    "starter_triton": "starter_triton.py",
    "starter_torch": "starter_torch.py",
    "solution": "solution.py",
    "spec": "spec.py",
}
# Files a drill may have: a CUDA starter, a CUDA reference solution and the statement in
# Chinese (kernels/README.md).
OPTIONAL_FILES = {
    "starter_cuda": "starter_cuda.cu",
    "solution_cuda": "solution_cuda.cu",
    "statement_zh": "statement.zh.md",
}
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class DrillError(Exception):
    """A drill that does not exist or whose folder is broken."""


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float


@dataclass
class DrillSpec:
    """Everything the parent side knows about one drill."""

    id: str
    folder: Path
    title: str = ""
    difficulty: str = ""
    time_limit_min: int = 0
    statement: str = ""  # English (statement.md); statement_for(lang) picks a translation
    statements: dict[str, str] = field(default_factory=dict)  # lang ("en", "zh") -> Markdown, where present
    tags: list[str] = field(default_factory=list)
    metric: str = "gbps"
    entry: str = ""
    signature: str = ""
    inputs: list[str] = field(default_factory=list)
    starter_triton: Path | None = None
    starter_torch: Path | None = None
    starter_cuda: Path | None = None
    solution: Path | None = None
    solution_cuda: Path | None = None
    spec_module: Path | None = None
    tolerances: dict[str, Tolerance] = field(default_factory=dict)
    trials: int = 3
    cases: list[dict[str, Any]] = field(default_factory=list)
    gpu_cases: list[dict[str, Any]] = field(default_factory=list)
    bench_shapes: list[list[int]] = field(default_factory=list)
    bench_dtypes: list[str] = field(default_factory=list)
    bench_gpu_shapes: list[list[int]] = field(default_factory=list)   # a parallelism drill's NCCL sweep
    reference_ops: dict[str, list[str]] = field(default_factory=dict)
    error: str | None = None
    personal: bool = False  # saved by the user from the Bench pane (<data dir>/my-drills)
    pack: str | None = None  # the pack it comes from (id is then "<pack>/<drill>" or "<pack>/<group>/<name>")
    pack_problem: dict[str, Any] | None = None  # a GPU MODE / LeetGPU problem: read by the judge itself
    distributed: dict[str, Any] | None = None   # a parallelism drill: N ranks through torch.distributed

    @property
    def ok(self) -> bool:
        return self.error is None

    def statement_for(self, lang: str) -> str:
        """The statement in `lang` ("zh", "zh_CN", "en"), English where there is no translation."""
        text = self.statements.get(_statement_lang(lang), "")
        return text if text.strip() else self.statement

    def title_for(self, lang: str) -> str:
        """The title in `lang`: a translated statement's `# ` heading, else drill.yaml's title."""
        code = _statement_lang(lang)
        if code != "en" and self.statements.get(code, "").strip():
            first = self.statements[code].lstrip().splitlines()[0]
            if first.startswith("# ") and first[2:].strip():
                return first[2:].strip()
        return self.title

    def starter(self, lang: str) -> Path:
        """The starter file for 'triton', 'torch' or 'cuda'."""
        path = {"triton": self.starter_triton, "torch": self.starter_torch, "cuda": self.starter_cuda}.get(lang)
        if path is None:
            raise DrillError(f"drill {self.id!r} has no {lang} starter")
        return path

    @property
    def languages(self) -> list[str]:
        """The languages this drill has a starter for."""
        return [lang for lang in LANGS if {"triton": self.starter_triton, "torch": self.starter_torch,
                                           "cuda": self.starter_cuda}[lang] is not None]

    def summary(self, lang: str = "en") -> dict[str, Any]:
        """What `studio-drill list --json [--lang zh]` prints for this drill."""
        if not self.ok:
            return {"id": self.id, "error": self.error, "folder": str(self.folder)}
        return {
            "id": self.id,
            "title": self.title_for(lang),
            "statement_languages": sorted(self.statements) or ["en"],
            "difficulty": self.difficulty,
            "time_limit_min": self.time_limit_min,
            "tags": list(self.tags),
            "metric": self.metric,
            "entry": self.entry,
            "signature": self.signature,
            "folder": str(self.folder),
            "starter_triton": str(self.starter_triton),
            "starter_torch": str(self.starter_torch),
            "starter_cuda": str(self.starter_cuda) if self.starter_cuda else None,
            "solution": str(self.solution),
            "solution_cuda": str(self.solution_cuda) if self.solution_cuda else None,
            "pack": self.pack,
            **({"distributed": self.distributed} if self.distributed else {}),
        }

    def to_request(self) -> dict[str, Any]:
        """The checked spec as plain JSON for the child harness (which has no YAML)."""
        return {
            "id": self.id,
            "entry": self.entry,
            "signature": self.signature,
            "inputs": list(self.inputs),
            "metric": self.metric,
            "spec_module": str(self.spec_module),
            "tolerances": {k: {"atol": v.atol, "rtol": v.rtol} for k, v in self.tolerances.items()},
            "trials": self.trials,
            "cases": self.cases,
            "gpu_cases": self.gpu_cases,
            "bench": {"shapes": self.bench_shapes, "dtypes": self.bench_dtypes,
                      **({"gpu_shapes": self.bench_gpu_shapes} if self.bench_gpu_shapes else {})},
            "reference_ops": self.reference_ops,
            **({"pack_problem": self.pack_problem} if self.pack_problem else {}),
            **({"distributed": self.distributed} if self.distributed else {}),
        }


def _statement_lang(lang: str) -> str:
    """"zh_CN", "zh" -> "zh"; anything else -> "en"."""
    return "zh" if str(lang).lower().startswith("zh") else "en"


def load_catalog(kernels_dir: Path | None = None) -> list[DrillSpec]:
    """Every drill folder under kernels_dir (default: paths.kernels_dir()), sorted by id.

    Folders without a drill.yaml are skipped; broken drills are returned with `error` set.
    """
    root = Path(kernels_dir) if kernels_dir is not None else paths.kernels_dir()
    if not root.is_dir():
        return []
    drills = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if (folder / "drill.yaml").is_file():
            drills.append(load_drill(folder))
    return drills


def load_my_drills() -> list[DrillSpec]:
    """The user's own drills (studio.drills.my_drills), marked personal."""
    drills = load_catalog(paths.data_dir() / "my-drills")
    for drill in drills:
        drill.personal = True
    return drills


def get_drill(drill_id: str, kernels_dir: Path | None = None) -> DrillSpec:
    """The drill with this id (the catalogue first, then the user's own); DrillError if
    it is missing or broken."""
    if "/" in drill_id:
        from studio.drills.packs import PackError, pack_drill, problem_drill

        try:
            spec = pack_drill(drill_id) if drill_id.count("/") == 1 else problem_drill(drill_id)
        except PackError as exc:
            raise DrillError(str(exc)) from exc
        if spec is None:
            raise DrillError(f"no drill named {drill_id!r}: {drill_id.split('/')[0]!r} is not an added pack "
                             f"(studio-drill packs list)")
        return spec
    root = Path(kernels_dir) if kernels_dir is not None else paths.kernels_dir()
    folder = root / drill_id
    mine = paths.data_dir() / "my-drills" / drill_id
    if _ID_RE.match(drill_id) and not (folder / "drill.yaml").is_file() and (mine / "drill.yaml").is_file():
        root, folder = mine.parent, mine
    if not _ID_RE.match(drill_id) or not (folder / "drill.yaml").is_file():
        known = ", ".join(d.id for d in load_catalog(root)) or "none"
        raise DrillError(f"no drill named {drill_id!r} (known drills: {known})")
    spec = load_drill(folder)
    if not spec.ok:
        raise DrillError(f"drill {drill_id!r} is broken: {spec.error}")
    spec.personal = folder.parent == paths.data_dir() / "my-drills"
    return spec


def load_drill(folder: Path) -> DrillSpec:
    """Read and check one drill folder; problems end up in DrillSpec.error."""
    folder = Path(folder)
    try:
        return _parse(folder)
    except DrillError as exc:
        return DrillSpec(id=folder.name, folder=folder, title=folder.name, error=str(exc))
    except (OSError, yaml.YAMLError) as exc:
        return DrillSpec(id=folder.name, folder=folder, title=folder.name,
                         error=f"cannot read drill.yaml: {exc}")


def _parse(folder: Path) -> DrillSpec:
    data = yaml.safe_load((folder / "drill.yaml").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise DrillError("drill.yaml must be a mapping")
    drill_id = _require(data, "id", str)
    if drill_id != folder.name:
        raise DrillError(f"id {drill_id!r} does not match its folder name {folder.name!r}")
    difficulty = _require(data, "difficulty", str)
    if difficulty not in DIFFICULTIES:
        raise DrillError(f"difficulty must be one of {DIFFICULTIES}, not {difficulty!r}")
    metric = data.get("metric", "gbps")
    if metric not in METRICS:
        raise DrillError(f"metric must be one of {METRICS}, not {metric!r}")
    time_limit = _require(data, "time_limit_min", int)
    if time_limit <= 0:
        raise DrillError("time_limit_min must be positive")
    entry = _require(data, "entry", str)
    if not entry.isidentifier():
        raise DrillError(f"entry {entry!r} is not a Python function name")

    distributed = _parse_distributed(data.get("distributed"))
    files = {**FILE_DEFAULTS, **(data.get("files") or {})}
    located = {}
    for role, name in files.items():
        path = folder / str(name)
        if distributed and role == "starter_triton" and not path.is_file():
            located[role] = None    # a parallelism drill is written with torch.distributed only
            continue
        if not path.is_file():
            raise DrillError(f"missing {role} file {name!r}")
        located[role] = path
    for role, name in OPTIONAL_FILES.items():
        path = folder / str((data.get("files") or {}).get(role, name))
        located[role] = path if path.is_file() else None

    statements = {"en": _read_text(located["statement"])}
    if located["statement_zh"] is not None:
        statements["zh"] = _read_text(located["statement_zh"])
    tolerances = _parse_tolerances(data.get("tolerances"))
    cases = _parse_cases(data.get("cases"), "cases", tolerances)
    if not cases:
        raise DrillError("cases must list at least one test case")
    gpu_cases = _parse_cases(data.get("gpu_cases") or [], "gpu_cases", tolerances)
    bench = data.get("bench") or {}
    shapes = bench.get("shapes") or []
    dtypes = bench.get("dtypes") or []
    if not all(_is_shape(s) for s in shapes):
        raise DrillError("bench.shapes must be a list of shapes (lists of positive ints)")
    gpu_shapes = bench.get("gpu_shapes") or []
    if not all(_is_shape(s) for s in gpu_shapes):
        raise DrillError("bench.gpu_shapes must be a list of shapes (lists of positive ints)")
    for dtype in dtypes:
        _check_dtype(dtype, "bench.dtypes", tolerances)
    return DrillSpec(
        id=drill_id,
        folder=folder,
        title=_require(data, "title", str),
        difficulty=difficulty,
        time_limit_min=time_limit,
        statement=statements["en"],
        statements=statements,
        tags=[str(t) for t in data.get("tags") or []],
        metric=metric,
        entry=entry,
        signature=str(data.get("signature") or f"{entry}(...)"),
        inputs=[str(n) for n in data.get("inputs") or []],
        starter_triton=located["starter_triton"],
        starter_torch=located["starter_torch"],
        starter_cuda=located["starter_cuda"],
        solution=located["solution"],
        solution_cuda=located["solution_cuda"],
        spec_module=located["spec"],
        tolerances=tolerances,
        trials=int(data.get("trials", 3)),
        cases=cases,
        gpu_cases=gpu_cases,
        bench_shapes=[list(s) for s in shapes],
        bench_dtypes=list(dtypes),
        bench_gpu_shapes=[list(s) for s in gpu_shapes],
        reference_ops=_parse_reference_ops(data.get("reference_ops")),
        distributed=distributed,
    )


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DrillError(f"{path.name} is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _require(data: dict, key: str, kind: type) -> Any:
    if key not in data:
        raise DrillError(f"drill.yaml lacks {key!r}")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DrillError(f"{key!r} must be a {kind.__name__}, not {value!r}")
    return value


def _parse_tolerances(raw: Any) -> dict[str, Tolerance]:
    if not isinstance(raw, dict) or not raw:
        raise DrillError("tolerances must map dtypes to {atol, rtol}")
    result = {}
    for dtype, tol in raw.items():
        if dtype not in DTYPES:
            raise DrillError(f"tolerances: unknown dtype {dtype!r} (use {DTYPES})")
        try:
            result[dtype] = Tolerance(atol=float(tol["atol"]), rtol=float(tol["rtol"]))
        except (TypeError, KeyError, ValueError) as exc:
            raise DrillError(f"tolerances.{dtype} needs numeric atol and rtol") from exc
    return result


def _parse_cases(raw: Any, where: str, tolerances: dict[str, Tolerance]) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        raise DrillError(f"{where} must be a list")
    cases, names = [], set()
    for i, case in enumerate(raw):
        if not isinstance(case, dict) or "name" not in case:
            raise DrillError(f"{where}[{i}] needs a name")
        name = str(case["name"])
        if name in names:
            raise DrillError(f"{where}: duplicate case name {name!r}")
        names.add(name)
        if not _is_shape(case.get("shape")):
            raise DrillError(f"{where}[{name}]: shape must be a list of positive ints")
        _check_dtype(case.get("dtype"), f"{where}[{name}]", tolerances)
        trials = case.get("trials")
        if trials is not None and (not isinstance(trials, int) or isinstance(trials, bool) or trials < 1):
            raise DrillError(f"{where}[{name}]: trials must be a positive int (this case's cap on the "
                             f"drill's trials), not {trials!r}")
        if "large_path" in case and not (isinstance(case["large_path"], str) and case["large_path"].strip()):
            raise DrillError(f"{where}[{name}]: large_path must say which large-size path the case runs")
        cases.append({"fill": "randn", "layout": "contiguous", **case, "name": name})
    return cases


def _check_dtype(dtype: Any, where: str, tolerances: dict[str, Tolerance]) -> None:
    if dtype not in DTYPES:
        raise DrillError(f"{where}: dtype must be one of {DTYPES}, not {dtype!r}")
    if dtype not in tolerances:
        raise DrillError(f"{where}: no tolerance given for {dtype}")


def _is_shape(value: Any) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value))


def _parse_reference_ops(raw: Any) -> dict[str, list[str]]:
    """Names of torch ops that give the answer away, per solution language."""
    if raw is None:
        return {lang: [] for lang in LANGS}
    if isinstance(raw, list):
        return {lang: [str(n) for n in raw] for lang in LANGS}
    if isinstance(raw, dict) and set(raw) <= set(LANGS):
        base = [str(n) for n in raw.get("triton") or []]
        return {"triton": base, "torch": [str(n) for n in raw.get("torch", base) or []],
                "cuda": [str(n) for n in raw.get("cuda", base) or []]}
    raise DrillError("reference_ops must be a list of op names or {triton: [...], torch: [...], cuda: [...]}")


COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all")


def _parse_distributed(raw: Any) -> dict[str, Any] | None:
    """A parallelism drill's `distributed:` section (kernels/README.md), checked."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise DrillError("distributed must be a mapping")
    sizes = raw.get("world_sizes", [2, 8])
    if (not isinstance(sizes, list) or len(sizes) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                                                   for v in sizes) or not 2 <= sizes[0] <= sizes[1] <= 8):
        raise DrillError("distributed.world_sizes must be [low, high] with 2 <= low <= high <= 8")
    default = raw.get("default_world_size", min(max(4, sizes[0]), sizes[1]))
    if not isinstance(default, int) or not sizes[0] <= default <= sizes[1]:
        raise DrillError(f"distributed.default_world_size must lie in {sizes}")
    collective = raw.get("collective")
    if collective is not None and collective not in COLLECTIVES:
        raise DrillError(f"distributed.collective must be one of {COLLECTIVES} or absent, not {collective!r}")
    timeout = raw.get("case_timeout_s", 30)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
        raise DrillError("distributed.case_timeout_s must be a positive number")
    outputs = raw.get("outputs", ["out"])
    if not isinstance(outputs, list) or not outputs or not all(isinstance(o, str) for o in outputs):
        raise DrillError("distributed.outputs must name the entry's outputs")
    calls = raw.get("calls") or {}
    if not isinstance(calls, dict) or not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                                              and v >= 0 for k, v in calls.items()):
        raise DrillError("distributed.calls must map torch.distributed function names to call counts")
    extra = {"calls": dict(calls), "calls_note": str(raw.get("calls_note") or "")} if calls else {}
    return {**extra, "world_sizes": list(sizes), "default_world_size": default, "collective": collective,
            "case_timeout_s": float(timeout), "outputs": list(outputs),
            "library": str(raw.get("library") or (f"dist.{collective}" if collective else "")),
            "allowed": str(raw.get("allowed") or "point-to-point send/recv")}
