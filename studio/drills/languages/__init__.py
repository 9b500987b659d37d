"""Solution languages: how a file becomes a callable (DESIGN.md: problems x languages x targets).

A language knows how to recognise its files, what its starters and drafts are called, how
the editor colours it, and whether it needs a GPU. Building and calling happen in the
worker (`studio.drills.harness.worker`, with `cuda_build` for CUDA C++); this package is
plain Python, imported by the GUI, the runner and the judge alike (no Qt, no torch).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from studio.drills.languages import cuda


@dataclass(frozen=True)
class Language:
    name: str            # the key everywhere: RunRequest.lang, drafts, attempts
    label: str           # what the picker shows
    suffix: str          # drafts and "Save as" use it
    file_filter: str     # a file dialog's filter
    lexer: str           # the Pygments lexer alias the editor uses
    needs_gpu: bool      # False: runs under Triton's interpreter on CPU too


LANGUAGES: dict[str, Language] = {
    "triton": Language("triton", "Triton", ".py", "Python (*.py)", "python", False),
    "torch": Language("torch", "PyTorch", ".py", "Python (*.py)", "python", False),
    "cuda": Language("cuda", "CUDA C++", ".cu", "CUDA C++ (*.cu *.cuh);;Python (*.py)", "cuda", True),
}
NAMES = tuple(LANGUAGES)
_IMPORTS_TRITON = re.compile(r"^\s*(?:import|from)\s+triton\b", re.M)
# A Triton kernel of the file's own: @triton.jit / @jit / @triton.autotune, or triton.jit(f).
_TRITON_KERNEL = re.compile(r"^\s*@\s*(?:triton\.)?(?:jit|autotune|heuristics)\b|\btriton\.jit\s*\(", re.M)


def get(name: str) -> Language:
    try:
        return LANGUAGES[name]
    except KeyError:
        raise ValueError(f"unknown language {name!r}: one of {', '.join(NAMES)}") from None


def detect_text(path: str | Path, text: str, own_kernel: bool = False) -> str:
    """The language of a solution file from its name and text.

    A file importing triton is Triton (a drill's Triton solution that computes with torch
    then fails for launching no kernel). With `own_kernel` (problems from GPU MODE or
    LeetGPU, whose own PyTorch solutions import triton unused: pmpp vectorsum, judged as a
    Triton solution that launched no kernel on the H200) it must also define a Triton kernel.
    """
    if cuda.is_cuda_source(path, text):
        return "cuda"
    if not _IMPORTS_TRITON.search(text):
        return "torch"
    return "triton" if not own_kernel or _TRITON_KERNEL.search(text) else "torch"


def detect(path: str | Path, own_kernel: bool = False) -> str:
    """The language of a solution file on disk ('triton' when it cannot be read)."""
    path = Path(path)
    if path.suffix in cuda.SUFFIXES:
        return "cuda"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "triton"
    return detect_text(path, text, own_kernel)


def resolve(asked: str | None, path: str | Path, own_kernel: bool = False) -> str:
    """`asked` when it names a language, else (auto) what the file is."""
    if asked and asked != "auto":
        get(asked)
        return asked
    return detect(path, own_kernel)


def probe_facts(python: str | None = None, timeout_s: float = 120.0) -> dict:
    """What `python` (default: this interpreter) can build and run: languages.probe's facts.

    Runs the probe in a child process, so the caller never imports torch; a probe that
    fails or hangs gives facts that say so (and availability() then names the reason)."""
    import json
    import os
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parents[3])
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        out = subprocess.run([python or sys.executable, "-m", "studio.drills.languages.probe"],
                             capture_output=True, text=True, timeout=timeout_s, env=env)
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
        return {"probe_error": f"{type(exc).__name__}: {exc}"}
