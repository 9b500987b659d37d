"""CUDA C++ solutions: recognising them, reading their host function, and their build logs.

Plain Python (no torch, no Qt): the runner, the judge, the GUI and the tests use it. The
worker builds with `studio.drills.harness.cuda_build`, which relies on what is here.

A CUDA solution is either a `.cu` file (kernels plus a host function named like the
drill's entry; the engine generates the Python binding, as load_inline(functions=[...])
does) or a `.py` file that builds its CUDA source with
`torch.utils.cpp_extension.load_inline`, GPU MODE's convention. kernels/README.md,
"CUDA solutions", is the user-facing description.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

SUFFIXES = (".cu", ".cuh")
BINDING_TYPES = "torch::Tensor, int64_t, double or bool"
BUILD_BUDGET_S = 600.0   # a first build may take this long on top of the run's time limit

_LOAD_INLINE = re.compile(r"\bload_inline\s*\(")
_CUDA_SOURCES = re.compile(r"\bcuda_sources\s*=")


def is_cuda_source(path: str | Path, text: str) -> bool:
    """A .cu file, or Python that compiles CUDA source with load_inline."""
    if Path(path).suffix in SUFFIXES:
        return True
    return bool(_LOAD_INLINE.search(text) and _CUDA_SOURCES.search(text))


# ----- reading C++ ------------------------------------------------------------------------------
def blank_comments(text: str) -> str:
    """`text` with comments and string/char literals replaced by spaces (newlines kept), so
    offsets and line numbers still match the original."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            if c == "'" and j - i > 4:  # a digit separator (1'000), not a char literal
                i += 1
                continue
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


@dataclass(frozen=True)
class Param:
    type: str     # as written, whitespace collapsed: "const torch::Tensor&"
    name: str
    kind: str     # "Tensor", "int", "float", "bool" or "" (not something the binding passes)


@dataclass(frozen=True)
class HostFunction:
    name: str
    return_type: str
    params: tuple[Param, ...]
    line: int
    static: bool

    @property
    def declaration(self) -> str:
        args = ", ".join(f"{p.type} {p.name}".strip() for p in self.params)
        return f"{self.return_type} {self.name}({args});"


_TYPE_KINDS = (
    (re.compile(r"^(?:const\s+)?(?:torch|at)::Tensor\s*&?$"), "Tensor"),
    (re.compile(r"^(?:const\s+)?(?:std::)?(?:u?int(?:8|16|32|64)_t|int|long|long\s+long|unsigned|"
                r"size_t|short)$"), "int"),
    (re.compile(r"^(?:const\s+)?(?:double|float)$"), "float"),
    (re.compile(r"^(?:const\s+)?bool$"), "bool"),
)


def _kind(type_text: str) -> str:
    for pattern, kind in _TYPE_KINDS:
        if pattern.match(type_text):
            return kind
    return ""


def _split_params(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip() and p.strip() != "void"]


def _param(text: str) -> Param:
    text = re.sub(r"\s+", " ", text.split("=", 1)[0]).strip()
    m = re.match(r"^(.*?[\s&*])(\w+)$", text)
    type_text, name = (m.group(1).strip(), m.group(2)) if m else (text, "")
    type_text = re.sub(r"\s*&\s*$", "&", type_text)
    return Param(type_text, name, _kind(type_text))


def find_host_function(text: str, entry: str) -> HostFunction | None:
    """The definition of the host function `entry` (not a kernel), or None."""
    clean = blank_comments(text)
    pattern = re.compile(
        r"^[ \t]*(?P<quals>(?:(?:static|inline|extern)[ \t]+)*)(?P<ret>[\w:][\w:<>, \t]*?[ \t&*])"
        + re.escape(entry) + r"\s*\((?P<params>[^()]*(?:\([^()]*\)[^()]*)*)\)\s*(?:noexcept\s*)?\{",
        re.M)
    for m in pattern.finditer(clean):
        ret = re.sub(r"\s+", " ", m.group("ret")).strip()
        if "__global__" in ret or "__device__" in ret or ret in ("return", "else"):
            continue
        params = tuple(_param(p) for p in _split_params(m.group("params")))
        line = _line_at(clean, m.start("ret"))
        return HostFunction(entry, ret, params, line, "static" in m.group("quals"))
    return None


def drill_params(signature: str) -> list[tuple[str, str]]:
    """[(name, kind)] from a drill signature such as "layernorm(x: Tensor, eps: float) -> Tensor"."""
    m = re.match(r"^\s*\w+\s*\((.*)\)", signature)
    if not m:
        return []
    out = []
    for part in _split_params(m.group(1)):
        name, _, kind = part.partition(":")
        out.append((name.strip(), kind.strip().split("=")[0].strip() or "Tensor"))
    return out


def signature_problem(host: HostFunction, signature: str) -> str | None:
    """Why `host` cannot be called the way the drill calls it, or None."""
    wanted = drill_params(signature)
    where = f"(line {host.line})"
    if host.static:
        return (f"the host function {host.name} {where} is static: it must be visible to the "
                f"binding the engine generates; remove `static`")
    if not re.match(r"^(?:const\s+)?(?:torch|at)::Tensor$", host.return_type):
        return (f"the host function {host.name} {where} returns {host.return_type}: it must "
                f"allocate its output and return it as torch::Tensor")
    if any(name == "..." for name, _ in wanted):
        return None   # a bench spec's kernel: its inputs are whatever the spec makes
    if len(host.params) != len(wanted):
        takes = ", ".join(f"{p.type} {p.name}".strip() for p in host.params) or "nothing"
        return (f"the host function {host.name} {where} takes {len(host.params)} parameter(s) "
                f"({takes}), but the drill calls {signature}")
    for index, (param, (name, kind)) in enumerate(zip(host.params, wanted), start=1):
        if not param.kind:
            return (f"parameter {index} of {host.name} {where} is `{param.type}`: the binding "
                    f"passes {BINDING_TYPES}; the drill gives {name}: {kind}")
        if param.kind != kind and not (param.kind == "float" and kind == "int"):
            return (f"parameter {index} of {host.name} {where} is `{param.type}`, but the drill "
                    f"passes {name}: {kind}")
    return None


_HOST = re.compile(r"^[ \t]*(?:inline[ \t]+)?(?:torch|at)::Tensor[ \t]+(\w+)\s*\(", re.M)


def host_functions(text: str) -> list[str]:
    """Names of the functions in a .cu file that return a tensor: what a bench can call."""
    names: list[str] = []
    for m in _HOST.finditer(blank_comments(text)):
        if m.group(1) not in names:
            names.append(m.group(1))
    return names


_KERNEL = re.compile(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+"
                     r"(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(")


def kernel_names(text: str) -> dict[str, int]:
    """{kernel name: line of its definition} for every __global__ function in the source."""
    clean = blank_comments(text)
    names: dict[str, int] = {}
    for m in _KERNEL.finditer(clean):
        names.setdefault(m.group(1), _line_at(clean, m.start(1)))
    return names


def line_of(source: str, snippet: str) -> int | None:
    """The 1-based line of `source` where `snippet` starts verbatim, if it occurs once."""
    if not snippet.strip():
        return None
    first = source.find(snippet)
    if first < 0 or source.find(snippet, first + 1) >= 0:
        return None
    return _line_at(source, first)


_CPP_TYPES = {"Tensor": "torch::Tensor", "int": "int64_t", "float": "double", "bool": "bool"}


def starter_from_signature(entry: str, signature: str) -> str:
    """A CUDA starter for a problem that has none (a bench spec, a personal drill): the
    includes, a kernel skeleton and the host function with the drill's parameters."""
    params = drill_params(signature)
    args = ", ".join(f"{_CPP_TYPES.get(kind, 'torch::Tensor')} {name}" for name, kind in params)
    first = next((name for name, kind in params if kind == "Tensor"), None)
    alloc = (f"    // auto out = torch::empty_like({first});  // or torch::empty({{...}}, {first}.options())\n"
             if first else "")
    return (f"// {entry}: a CUDA C++ solution. Calling convention: kernels/README.md, \"CUDA solutions\".\n"
            f"// The drill calls {signature}\n"
            "#include <torch/types.h>\n#include <c10/cuda/CUDAStream.h>\n#include <c10/cuda/CUDAException.h>\n\n"
            f"__global__ void {entry}_kernel(/* pointers, sizes, strides */) {{\n"
            "    // one thread per output element, or one block per row: your choice\n}\n\n"
            f"torch::Tensor {entry}({args}) {{\n{alloc}"
            f"    // {entry}_kernel<<<blocks, threads, 0, c10::cuda::getCurrentCUDAStream()>>>(...);\n"
            "    // C10_CUDA_KERNEL_LAUNCH_CHECK();\n"
            f"    TORCH_CHECK(false, \"{entry}: allocate the output and launch your kernel\");\n}}\n")


# ----- build logs -----------------------------------------------------------------------------
@dataclass
class Diagnostic:
    severity: str                 # "error", "warning" or "note"
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    context: list[str] = field(default_factory=list)   # the compiler's lines under it

    def where(self) -> str:
        if not self.file:
            return ""
        name = Path(self.file).name
        return f"{name}:{self.line}" + (f":{self.column}" if self.column else "") if self.line else name

    def format(self) -> str:
        where = self.where()
        head = f"{where}: {self.severity}: {self.message}" if where else f"{self.severity}: {self.message}"
        return "\n".join([head, *self.context]).rstrip()

    def to_dict(self) -> dict:
        return {"severity": self.severity, "message": self.message, "file": self.file,
                "line": self.line, "column": self.column}


_EDG = re.compile(r"^(?P<file>\S.*?)\((?P<line>\d+)\): (?P<sev>catastrophic error|error|warning|remark)"
                  r"(?: #(?P<code>[\w-]+))?: (?P<msg>.*)$")
_GCC = re.compile(r"^(?P<file>[^\s:][^:]*?):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>fatal error|error|warning|note):"
                  r" (?P<msg>.*)$")
_PTXAS = re.compile(r"^ptxas (?P<sev>error|warning|fatal)\s*: (?P<msg>.*)$")
_NVCC = re.compile(r"^nvcc (?P<sev>fatal|error|warning)\s*: (?P<msg>.*)$")
_LD = re.compile(r"^(?:/\S*/)?(?:ld|collect2)(?:\.\w+)?: (?:(?P<sev>error|warning): )?(?P<msg>.*)$")
_INSTANTIATED = re.compile(r"at line (\d+) of \"?(.+?)\"?\s*$")
_MANGLED = re.compile(r"'_Z(\d+)(\w+)")
_SKIP = re.compile(r"^(?:Remark: The warnings can be suppressed|\d+ errors? detected in the compilation|"
                   r"In file included from|\s+from |FAILED: |ninja: |\[\d+/\d+\] |Error building extension|"
                   r"Using .* as PyTorch extensions root|Emitting ninja build file|Building extension module|"
                   r"Allowing ninja to set|Loading extension module|Detected CUDA files|Creating extension directory|"
                   r"If this is not desired)")


def _demangled_kernel(message: str) -> str | None:
    m = _MANGLED.search(message)
    if not m:
        return None
    length, rest = int(m.group(1)), m.group(2)
    return rest[:length] if len(rest) >= length else None


def parse_build_log(log: str, user_files: dict[str, str] | None = None) -> list[Diagnostic]:
    """Errors then warnings from an nvcc / host compiler / ptxas / linker log, in log order.

    `user_files` maps a solution path to its text: a diagnostic raised inside a header but
    "detected during instantiation ... at line N of <user file>" is moved to that line, and
    a ptxas message about a kernel (by its mangled name) points at the kernel's definition.
    """
    user_files = user_files or {}
    found: list[Diagnostic] = []
    current: Diagnostic | None = None
    for raw in log.splitlines():
        line = raw.rstrip()
        if not line.strip() or _SKIP.match(line):
            if not line.strip():
                current = None
            continue
        m = _EDG.match(line)
        if m:
            sev = "error" if "error" in m.group("sev") else ("warning" if m.group("sev") == "warning" else "note")
            code = f" (#{m.group('code')})" if m.group("code") and sev == "warning" else ""
            current = Diagnostic(sev, m.group("msg").strip() + code, m.group("file").strip('"'), int(m.group("line")))
            found.append(current)
            continue
        m = _GCC.match(line)
        if m:
            sev = "error" if "error" in m.group("sev") else m.group("sev")
            current = Diagnostic(sev, m.group("msg").strip(), m.group("file"), int(m.group("line")),
                                 int(m.group("col")) if m.group("col") else None)
            found.append(current)
            continue
        m = _PTXAS.match(line) or _NVCC.match(line)
        if m:
            sev = "warning" if m.group("sev") == "warning" else "error"
            tool = "ptxas" if line.startswith("ptxas") else "nvcc"
            current = Diagnostic(sev, f"{tool}: {m.group('msg').strip()}")
            kernel = _demangled_kernel(line)
            for path, text in user_files.items():
                defined = kernel_names(text).get(kernel or "")
                if defined:
                    current.file, current.line = path, defined
                    current.message += f" (kernel {kernel})"
                    break
            found.append(current)
            continue
        m = _LD.match(line)
        if m and (m.group("sev") or "undefined reference" in line or "cannot find" in line):
            if "ld returned" in line:
                continue
            current = Diagnostic("warning" if m.group("sev") == "warning" else "error",
                                 f"linker: {m.group('msg').strip()}")
            found.append(current)
            continue
        if current is not None:
            current.context.append(line)
            m = _INSTANTIATED.search(line)
            if m and current.file not in user_files:
                target = _match_user_file(m.group(2), user_files)
                if target:
                    current.file, current.line, current.column = target, int(m.group(1)), None
    unique: list[Diagnostic] = []
    seen = set()
    for d in found:
        key = (d.severity, d.message, d.file, d.line)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    return ([d for d in unique if d.severity == "error"] + [d for d in unique if d.severity == "warning"]
            + [d for d in unique if d.severity == "note"])


def _match_user_file(path: str, user_files: dict[str, str]) -> str | None:
    path = path.strip().strip('"')
    for known in user_files:
        if path == known or Path(path).name == Path(known).name and path.endswith(Path(known).name):
            return known
    return None


def first_error(diagnostics: list[Diagnostic], user_files: dict[str, str] | None = None) -> Diagnostic | None:
    """The error to show first: the first one in the user's own file, else the first one."""
    errors = [d for d in diagnostics if d.severity == "error"]
    for d in errors:
        if user_files and d.file in user_files:
            return d
    return errors[0] if errors else None


def format_report(diagnostics: list[Diagnostic], log: str) -> str:
    """What the console shows for a build: every error, then every warning, then the raw log."""
    parts = [d.format() for d in diagnostics]
    if log.strip():
        parts.append("----- compiler output -----\n" + log.strip())
    return "\n\n".join(parts)


# ----- the build cache ---------------------------------------------------------------------------
def cache_key(sources: list[str], flags: list[str], toolkit: str, torch_version: str, arch: str,
              python_abi: str) -> str:
    """sha256 over everything that changes the built module."""
    blob = json.dumps({"sources": sources, "flags": flags, "toolkit": toolkit, "torch": torch_version,
                       "arch": arch, "abi": python_abi, "format": 1}, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


# ----- can this machine build and run CUDA? ------------------------------------------------------
@dataclass(frozen=True)
class Availability:
    ok: bool
    reason: str = ""      # what is missing, one sentence
    fix: str = ""         # what to do about it

    def message(self) -> str:
        return self.reason if not self.fix else f"{self.reason}: {self.fix}"


def availability(facts: dict) -> Availability:
    """Whether CUDA solutions can run, from what the drill Python reported (probe.facts)."""
    if facts.get("probe_error"):
        return Availability(False, f"the drill Python could not be asked what it has ({facts['probe_error']})",
                            "check the drill Python setting")
    if not facts.get("torch"):
        return Availability(False, "PyTorch is not installed in the drill Python",
                            "install torch there, or point the drill Python at an environment that has it")
    if not facts.get("torch_cuda"):
        return Availability(False, f"the drill Python's PyTorch ({facts.get('torch')}) is a CPU-only build",
                            "install a CUDA build of torch, or set the drill Python to an environment that has one")
    if not facts.get("gpu"):
        return Availability(False, "no NVIDIA GPU is visible to the drill Python",
                            "CUDA solutions run only on a GPU; Triton and PyTorch drills still run in the interpreter")
    if not facts.get("nvcc"):
        return Availability(False, "CUDA toolkit not found",
                            "install it, or set the drill Python to an environment that has it "
                            "(nvcc on PATH or CUDA_HOME set)")
    if not facts.get("ninja"):
        return Availability(False, "ninja not found (torch.utils.cpp_extension builds with it)",
                            "run `pip install ninja` in the drill Python")
    return Availability(True)
