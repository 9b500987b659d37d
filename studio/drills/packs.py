"""Problem packs: folders of problems the user keeps elsewhere, read where they are.

Three layouts are recognised by their files, never by the folder's name:

- **drills**: a folder of drill folders as in kernels/ (each with a drill.yaml); the
  user's own drills, kept in git and shared. Their drills run like the catalogue's, under
  the id `<pack>/<drill>`.
- **gpumode**: GPU MODE's reference-kernels (`problems/<group>/<name>/task.yml` with
  reference.py, task.py and a submission template; the group's utils.py and eval.py one
  level up). The clone's root, its `problems/` folder or one group folder may be given.
- **leetgpu**: LeetGPU's public challenges (`challenges/<difficulty>/<n>_<name>/` with
  challenge.py, challenge.html and starter/starter.<framework>.<ext>; the base class in
  `challenges/core/`). The clone's root or its `challenges/` folder may be given.

Reading a pack imports nothing from it: task.yml is YAML, challenge.py is read with `ast`.
Nothing is copied: the registry (`<data dir>/packs.json`) holds only paths, so a `git pull`
in the clone shows on the next read. A broken problem is listed with its error; a folder
that is none of the layouts is refused with what was looked for. This module imports no Qt
and no torch.
"""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml

from studio import paths

LAYOUTS = ("drills", "gpumode", "leetgpu")
LAYOUT_LABELS = {"drills": "drill folders", "gpumode": "GPU MODE reference-kernels",
                 "leetgpu": "LeetGPU challenges"}
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# LeetGPU starter files: starter.<framework>.<ext>; the ones this app runs, the others named.
# starter.cu's solve is extern "C" on raw device pointers: the app builds it with a generated
# binding that hands it the tensors' pointers (harness/cuda_build.py, build_native).
_LEETGPU_STARTERS = {"starter.triton.py": "triton", "starter.pytorch.py": "torch", "starter.cu": "cuda"}
_LEETGPU_OTHERS = {"starter.cute.py": "CuTe DSL",
                   "starter.jax.py": "JAX", "starter.mojo": "Mojo", "starter.tinygrad.py": "tinygrad",
                   "starter.numba.py": "Numba"}
# GPU MODE template names (task.yml `templates`): the ones this app runs.
_GPUMODE_TEMPLATES = {"python": "torch", "triton": "triton", "cuda": "cuda", "pytorch": "torch"}
MAX_PROBLEMS = 2000            # a folder with more is not a problem set someone practises from


class PackError(Exception):
    """A folder that cannot be added, or a pack that is not registered."""


@dataclass
class Problem:
    """One problem of a pack, as the parent side sees it (no imports of the pack's code)."""

    id: str                        # <pack>/<group>/<name> (or <pack>/<drill> for drill folders)
    name: str
    title: str
    group: str
    folder: Path
    layout: str
    difficulty: str = ""
    statement: str = ""            # Markdown (drills, GPU MODE) or HTML (LeetGPU), shown sanitised
    statement_format: str = "markdown"
    starters: dict[str, Path] = field(default_factory=dict)   # language -> file
    unsupported: list[str] = field(default_factory=list)      # other languages the pack has
    gpus: int = 1
    targets: list[str] = field(default_factory=list)          # the GPUs the problem was set for (GPU MODE)
    tests: int = 0
    benchmarks: int = 0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "title": self.title, "group": self.group,
                "layout": self.layout, "difficulty": self.difficulty, "folder": str(self.folder),
                "starters": {k: str(v) for k, v in self.starters.items()},
                "unsupported_languages": list(self.unsupported), "gpus": self.gpus, "targets": list(self.targets),
                "tests": self.tests, "benchmarks": self.benchmarks, "error": self.error}


@dataclass
class Pack:
    name: str
    path: Path
    layout: str | None
    problems: list[Problem] = field(default_factory=list)
    error: str | None = None
    added: str = ""
    root: Path | None = None       # the folder its problems are read from (detect_layout)

    def summary(self) -> dict[str, Any]:
        return {"name": self.name, "path": str(self.path), "layout": self.layout, "added": self.added,
                "problems": len(self.problems), "broken": sum(not p.ok for p in self.problems),
                "error": self.error}


# ----- the registry ------------------------------------------------------------------------------
def registry_path() -> Path:
    return paths.data_dir() / "packs.json"


def _read_registry() -> list[dict[str, str]]:
    try:
        data = json.loads(registry_path().read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        raise PackError(f"the pack list {registry_path()} cannot be read ({exc}); fix or delete it") from exc
    entries = data.get("packs") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise PackError(f"the pack list {registry_path()} is not a {{\"packs\": [...]}} document")
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("name"), str)
            and isinstance(e.get("path"), str)]


def _write_registry(entries: list[dict[str, str]]) -> None:
    target = registry_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"packs": entries}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, target)


def registered() -> list[dict[str, str]]:
    """The packs the user added: [{"name", "path", "added"}], in the order added."""
    return _read_registry()


def add_pack(path: str | Path, name: str | None = None) -> Pack:
    """Register a folder; PackError (with what was looked for) when it is none of the layouts."""
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise PackError(f"{folder} is not a folder")
    folder = folder.resolve()
    layout, root, why = detect_layout(folder)
    if layout is None:
        raise PackError(why)
    entries = _read_registry()
    for entry in entries:
        if Path(entry["path"]) == folder:
            raise PackError(f"{folder} is already added, as {entry['name']!r}")
    name = name or _default_name(folder, root, layout)
    if not _NAME_RE.match(name):
        raise PackError(f"pack name {name!r}: use lower-case letters, digits, '-' and '_'")
    if any(e["name"] == name for e in entries):
        raise PackError(f"a pack named {name!r} exists already: give this one another name")
    entry = {"name": name, "path": str(folder), "added": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    _write_registry([*entries, entry])
    return read_pack(entry)


def remove_pack(name_or_path: str) -> dict[str, str]:
    """Forget a pack (its folder is not touched). PackError when no pack matches."""
    entries = _read_registry()
    target = Path(name_or_path).expanduser()
    for i, entry in enumerate(entries):
        if entry["name"] == name_or_path or (target.is_absolute() and Path(entry["path"]) == target.resolve()):
            _write_registry(entries[:i] + entries[i + 1:])
            return entry
    known = ", ".join(e["name"] for e in entries) or "none"
    raise PackError(f"no pack named {name_or_path!r} (packs: {known})")


def load_packs() -> list[Pack]:
    """Every registered pack, read now; a pack whose folder is gone says so."""
    return [read_pack(entry) for entry in _read_registry()]


def find_pack(name: str) -> Pack:
    for entry in _read_registry():
        if entry["name"] == name:
            return read_pack(entry)
    known = ", ".join(e["name"] for e in _read_registry()) or "none"
    raise PackError(f"no pack named {name!r} (packs: {known})")


def _default_name(folder: Path, root: Path, layout: str) -> str:
    base = root.name if layout != "drills" else folder.name
    if base in ("problems", "challenges"):
        base = root.parent.name
    name = re.sub(r"[^a-z0-9_-]+", "-", base.lower()).strip("-_") or layout
    return name if _NAME_RE.match(name) else layout


# ----- recognising a layout --------------------------------------------------------------------------
def detect_layout(folder: Path) -> tuple[str | None, Path, str]:
    """(layout, the folder its problems are read from, reason when none)."""
    folder = Path(folder)
    if not folder.is_dir():
        return None, folder, f"{folder} is not a folder"
    leet = folder / "challenges" if (folder / "challenges").is_dir() else folder
    if (leet / "core" / "challenge_base.py").is_file() or any(_leetgpu_dirs(leet)):
        return "leetgpu", leet, ""
    gm = folder / "problems" if (folder / "problems").is_dir() else folder
    if any(_gpumode_dirs(gm)):
        return "gpumode", gm, ""
    if any((child / "drill.yaml").is_file() for child in _subdirs(folder)):
        return "drills", folder, ""
    return None, folder, (f"{folder} is not a problem set this app reads: looked for drill folders "
                          f"(<drill>/drill.yaml), GPU MODE's problems/<group>/<name>/task.yml and "
                          f"LeetGPU's challenges/<difficulty>/<n>_<name>/challenge.py")


def _subdirs(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []


def _gpumode_dirs(root: Path):
    """Problem folders under a GPU MODE problems/ folder (<group>/<name>/task.yml), or one group."""
    for child in _subdirs(root):
        if (child / "task.yml").is_file():          # root is a group folder
            yield child
            continue
        for grand in _subdirs(child):
            if (grand / "task.yml").is_file():
                yield grand


def _leetgpu_dirs(root: Path):
    for child in _subdirs(root):
        if child.name == "core":
            continue
        if (child / "challenge.py").is_file():     # root is one difficulty folder
            yield child
            continue
        for grand in _subdirs(child):
            if (grand / "challenge.py").is_file():
                yield grand


# ----- reading a pack ------------------------------------------------------------------------------------
def read_pack(entry: dict[str, str]) -> Pack:
    """The pack and its problems, never raising: errors end up in Pack.error / Problem.error."""
    name, folder = entry["name"], Path(entry["path"])
    pack = Pack(name=name, path=folder, layout=None, added=entry.get("added", ""))
    if not folder.is_dir():
        pack.error = f"the folder {folder} is gone (moved or deleted): remove the pack or put it back"
        return pack
    layout, root, why = detect_layout(folder)
    if layout is None:
        pack.error = why
        return pack
    return _read_problems(pack, layout, root)


def _read_problems(pack: Pack, layout: str, root: Path) -> Pack:
    name = pack.name
    pack.layout, pack.root = layout, root
    readers = {"drills": _read_drills, "gpumode": _read_gpumode, "leetgpu": _read_leetgpu}
    try:
        pack.problems = readers[layout](name, root)[:MAX_PROBLEMS]
    except OSError as exc:
        pack.error = f"cannot read {root}: {exc}"
    return pack


def _read_drills(pack: str, root: Path) -> list[Problem]:
    from studio.drills.catalog import load_drill

    problems = []
    for folder in _subdirs(root):
        if not (folder / "drill.yaml").is_file():
            continue
        drill = load_drill(folder)
        problem = Problem(id=f"{pack}/{folder.name}", name=folder.name, title=drill.title or folder.name,
                          group="", folder=folder, layout="drills", difficulty=drill.difficulty,
                          statement=drill.statement, error=drill.error, tests=len(drill.cases),
                          benchmarks=len(drill.bench_shapes) * len(drill.bench_dtypes))
        if drill.ok:
            problem.starters = {lang: drill.starter(lang) for lang in drill.languages}
        problems.append(problem)
    return problems


def _read_gpumode(pack: str, root: Path) -> list[Problem]:
    problems = []
    targets = _gpumode_targets(root)
    for folder in _gpumode_dirs(root):
        group = folder.parent.name if folder.parent != root else root.name
        problem = Problem(id=f"{pack}/{group}/{folder.name}", name=folder.name, title=folder.name, group=group,
                          folder=folder, layout="gpumode")
        try:
            task = yaml.safe_load((folder / "task.yml").read_text(encoding="utf-8"))
            if not isinstance(task, dict):
                raise ValueError("task.yml is not a mapping")
        except (OSError, ValueError, yaml.YAMLError) as exc:
            problem.error = f"task.yml cannot be read: {_one_line(exc)}"
            problems.append(problem)
            continue
        problem.statement = str(task.get("description") or "")
        # GPU MODE's own name for it (its leaderboards say "grayscale", "trimul"), not the
        # description's first sentence: 40 "Implement a ... kernel that ..." titles in a list
        # were hard to tell apart, each cut at 80 characters.
        problem.title = _gpumode_name(folder.name)
        tests, benchmarks = task.get("tests"), task.get("benchmarks")
        problem.tests = len(tests) if isinstance(tests, list) else 0
        problem.benchmarks = len(benchmarks) if isinstance(benchmarks, list) else 0
        if task.get("multi_gpu") or task.get("world_size"):
            problem.gpus = _gpus_needed(tests)
        own = task.get("gpus")
        problem.targets = _unique([*targets.get(f"{group}/{folder.name}", []),
                                   *([str(g) for g in own] if isinstance(own, list) else [])])
        problem.error = _gpumode_problem_error(folder, task)
        if problem.error is None and not problem.tests:
            problem.error = "task.yml lists no tests"
        templates = task.get("templates") if isinstance(task.get("templates"), dict) else {}
        for label, rel in templates.items():
            lang = _GPUMODE_TEMPLATES.get(str(label).lower())
            path = (folder / str(rel)).resolve()
            if lang and path.is_file() and lang not in problem.starters:
                problem.starters[lang] = path
            elif not lang:
                problem.unsupported.append(str(label))
        if "torch" not in problem.starters and (folder / "submission.py").is_file():
            problem.starters["torch"] = folder / "submission.py"
        problems.append(problem)
    return problems


_GPUMODE_ENTRY_POINTS = ("generate_input", "ref_kernel", "check_implementation")


def _gpumode_problem_error(folder: Path, task: dict[str, Any]) -> str | None:
    """Why a GPU MODE problem cannot be run here, or None. reference.py must define
    generate_input, ref_kernel and check_implementation (read with `ast`, not run); the
    files task.yml copies beside a submission (task.py, utils.py; `files`) must exist. A
    problem whose task.yml copies no task.py needs none."""
    reference = folder / "reference.py"
    if not reference.is_file():
        return "missing reference.py"
    files = task.get("files")
    if isinstance(files, list):
        for entry in files:
            if not isinstance(entry, dict) or entry.get("name") not in ("task.py", "utils.py"):
                continue
            source = str(entry.get("source") or entry["name"])
            if not (folder / source).is_file():
                return f"missing {entry['name']} (task.yml copies it from {source})"
    elif not (folder / "task.py").is_file():
        return "missing task.py"
    try:
        tree = ast.parse(reference.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError) as exc:
        return f"reference.py cannot be read: {_one_line(exc)}"
    defined = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defined.append(node.name)
        elif isinstance(node, ast.Assign):
            defined += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defined += [(a.asname or a.name).split(".")[0] for a in node.names]
    missing = [name for name in _GPUMODE_ENTRY_POINTS if name not in defined]
    if not missing:
        return None
    functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
    own_eval = " and is judged by its own eval.py" if (folder / "eval.py").is_file() else ""
    return (f"reference.py defines no {', '.join(missing)}: the problem has another interface"
            f"{own_eval}" + (f" (its reference.py defines {', '.join(functions[:4])})" if functions else "")
            + "; this app runs problems judged by custom_kernel(data), ref_kernel and check_implementation")


def _gpumode_targets(root: Path) -> dict[str, list[str]]:
    """The GPUs each problem was set for: the competition files beside the groups
    (problems/<competition>.yaml: `problems: [{directory: <group>/<name>, gpus: [...]}]`)."""
    folder = root if any(root.glob("*.yaml")) else root.parent
    found: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, yaml.YAMLError):
            continue
        entries = data.get("problems") if isinstance(data, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("directory"), str) \
                    and isinstance(entry.get("gpus"), list):
                key = entry["directory"].strip("/")
                found[key] = _unique([*found.get(key, []), *(str(g) for g in entry["gpus"])])
    return found


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _gpus_needed(tests: Any) -> int:
    most = 2
    for test in tests if isinstance(tests, list) else []:
        if isinstance(test, dict):
            for key in ("world_size", "num_gpus", "ranks"):
                if isinstance(test.get(key), int):
                    most = max(most, test[key])
    return most


def _read_leetgpu(pack: str, root: Path) -> list[Problem]:
    problems = []
    for folder in _leetgpu_dirs(root):
        difficulty = folder.parent.name if folder.parent != root else root.name
        match = re.match(r"^(\d+)_(.+)$", folder.name)
        problem = Problem(id=f"{pack}/{difficulty}/{folder.name}", name=folder.name,
                          title=(match.group(2) if match else folder.name).replace("_", " "),
                          group=difficulty, folder=folder, layout="leetgpu",
                          difficulty=difficulty if difficulty in ("easy", "medium", "hard") else "",
                          statement_format="html")
        try:
            facts = challenge_facts((folder / "challenge.py").read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError) as exc:
            problem.error = f"challenge.py cannot be read: {_one_line(exc)}"
            problems.append(problem)
            continue
        problem.title = str(facts.get("name") or problem.title)
        problem.gpus = int(facts.get("num_gpus") or 1)
        html_file = folder / "challenge.html"
        try:
            problem.statement = html_file.read_text(encoding="utf-8")
        except OSError:
            problem.statement = ""
        starter_dir = folder / "starter"
        for path in sorted(starter_dir.iterdir()) if starter_dir.is_dir() else []:
            if path.name in _LEETGPU_STARTERS:
                problem.starters[_LEETGPU_STARTERS[path.name]] = path
            elif path.is_file() and path.name.startswith("starter."):
                problem.unsupported.append(_LEETGPU_OTHERS.get(path.name, path.name[len("starter."):]))
        if "reference_impl" not in facts.get("methods", ()):
            problem.error = "challenge.py has no Challenge.reference_impl"
        problems.append(problem)
    return problems


def challenge_facts(source: str) -> dict[str, Any]:
    """A LeetGPU challenge.py's class attributes (name, atol, rtol, num_gpus) and method
    names, read with `ast`: listing a pack runs none of its code."""
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Challenge":
            facts: dict[str, Any] = {"methods": []}
            for item in node.body:
                if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                    try:
                        facts[item.targets[0].id] = ast.literal_eval(item.value)
                    except ValueError:
                        pass
                elif isinstance(item, ast.FunctionDef):
                    facts["methods"].append(item.name)
            return facts
    raise ValueError("no class Challenge")


def _gpumode_name(folder: str) -> str:
    """`grayscale_py` -> `grayscale`: GPU MODE suffixes its Python problems' folders with _py."""
    return folder[:-3] if folder.endswith("_py") and len(folder) > 3 else folder


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# ----- GPU MODE and LeetGPU problems as drills ----------------------------------------------------
_SIGNATURES = {"gpumode": ("custom_kernel", "custom_kernel(data) -> output"),
               "leetgpu": ("solve", "solve(...) writes its output in place")}


def problem_drill(problem_id: str):
    """A GPU MODE / LeetGPU problem (`<pack>/<group>/<name>`) as a DrillSpec the runner can
    send: the judge reads the problem's own files (harness/pack_problem.py). None when
    the id names no added pack; DrillError when the pack has no such problem or it is broken."""
    from studio.drills.catalog import DrillError

    pack_name = problem_id.split("/", 1)[0]
    if not any(e["name"] == pack_name for e in _read_registry()):
        return None
    pack = find_pack(pack_name)
    if pack.error:
        raise DrillError(f"pack {pack_name!r}: {pack.error}")
    problem = next((p for p in pack.problems if p.id == problem_id), None)
    if problem is None:
        raise DrillError(f"pack {pack_name!r} has no problem {problem_id!r} (studio-drill packs show {pack_name})")
    if not problem.ok:
        raise DrillError(f"{problem_id} is broken: {problem.error}")
    return _problem_spec(pack, problem)


def _titled(problem: Problem) -> str:
    """The statement under the problem's title, as a drill's statement.md starts."""
    import html

    if problem.statement_format == "html":
        return f"<h1>{html.escape(problem.title)}</h1>\n{problem.statement}"
    return f"# {problem.title}\n\n{problem.statement}"


def _problem_spec(pack: Pack, problem: Problem):
    from studio.drills.catalog import DrillSpec

    pack_name, problem_id = pack.name, problem.id
    if not problem.ok:
        spec = DrillSpec(id=problem_id, folder=problem.folder, title=problem.title, error=problem.error)
        spec.pack = pack_name
        return spec
    entry, signature = _SIGNATURES[problem.layout]
    spec = DrillSpec(id=problem_id, folder=problem.folder, title=problem.title,
                     difficulty=problem.difficulty if problem.difficulty in ("easy", "medium", "hard") else "",
                     time_limit_min=30, statement=_titled(problem), tags=[pack_name, problem.group],
                     metric="gbps", entry=entry, signature=signature,
                     starter_triton=problem.starters.get("triton"), starter_torch=problem.starters.get("torch"),
                     starter_cuda=problem.starters.get("cuda"), trials=1, cases=[])
    spec.pack = pack_name
    spec.pack_problem = {"layout": problem.layout, "folder": str(problem.folder), "root": str(pack.root),
                         "gpus": problem.gpus, "statement_format": problem.statement_format}
    return spec


# ----- drills of drill-folder packs ---------------------------------------------------------------
def pack_drill(drill_id: str):
    """The DrillSpec of `<pack>/<drill>` (a drill-folder pack), id set to that; None when
    `drill_id` names no such pack; DrillError when the pack has no such drill."""
    from studio.drills.catalog import DrillError

    if drill_id.count("/") != 1:
        return None
    pack_name, drill_name = drill_id.split("/")
    entry = next((e for e in _read_registry() if e["name"] == pack_name), None)
    if entry is None:
        return None
    layout, root, why = detect_layout(Path(entry["path"]))
    if layout != "drills":
        raise DrillError(f"pack {pack_name!r} is {LAYOUT_LABELS.get(layout or '', why)}: its problems cannot "
                         f"be run as drills yet")
    folder = root / drill_name
    if not (folder / "drill.yaml").is_file():
        known = ", ".join(p.name for p in _subdirs(root) if (p / "drill.yaml").is_file()) or "none"
        raise DrillError(f"pack {pack_name!r} has no drill {drill_name!r} (its drills: {known})")
    spec = _pack_drill_spec(pack_name, folder)
    if not spec.ok:
        raise DrillError(f"drill {drill_id!r} is broken: {spec.error}")
    return spec


def _pack_drill_spec(pack_name: str, folder: Path):
    """A drill folder of a pack as a DrillSpec named `<pack>/<drill>`."""
    from studio.drills.catalog import load_drill

    spec = load_drill(folder)
    spec.id = f"{pack_name}/{folder.name}"
    spec.pack = pack_name
    return spec


def pack_drills(problems: bool = False) -> list:
    """Every drill of every drill-folder pack, ids `<pack>/<drill>` (broken ones with error);
    with `problems`, GPU MODE and LeetGPU problems too (ids `<pack>/<group>/<name>`)."""
    drills = []
    for entry in _read_registry():
        folder = Path(entry["path"])
        layout, root, _ = detect_layout(folder) if folder.is_dir() else (None, folder, "")
        if layout in ("gpumode", "leetgpu") and problems:
            pack = _read_problems(Pack(name=entry["name"], path=folder, layout=layout), layout, root)
            drills += [_problem_spec(pack, p) for p in pack.problems]
        elif layout == "drills":
            drills += [_pack_drill_spec(entry["name"], child) for child in _subdirs(root)
                       if (child / "drill.yaml").is_file()]
    return drills
