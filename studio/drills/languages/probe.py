"""What the drill Python can build and run: `python -m studio.drills.languages.probe` prints JSON.

Run by the GUI (in the background, with the configured drill Python, so the GUI process
never imports torch), by `studio-drill languages` and by the judge before a CUDA run.
`languages.cuda.availability(facts)` turns the facts into "available" or a reason and a fix.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

_RELEASE = re.compile(r"release (\d+\.\d+), V([\d.]+)")


def nvcc_version(nvcc: str) -> str | None:
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    m = _RELEASE.search(out.stdout)
    return m.group(2) if out.returncode == 0 and m else None


def find_nvcc(cuda_home: str | None) -> str | None:
    if cuda_home:
        candidate = os.path.join(cuda_home, "bin", "nvcc")
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("nvcc")


def facts() -> dict:
    found: dict = {"python": sys.executable, "torch": None, "torch_cuda": None, "gpu": None,
                   "capability": None, "cuda_home": None, "nvcc": None, "nvcc_path": None, "ninja": False}
    try:
        import torch
    except Exception as exc:  # noqa: BLE001 - a broken install is a fact too
        found["torch_error"] = f"{type(exc).__name__}: {exc}"
        return found
    found["torch"] = torch.__version__
    found["torch_cuda"] = torch.version.cuda
    try:
        if torch.cuda.is_available():
            found["gpu"] = torch.cuda.get_device_name()
            major, minor = torch.cuda.get_device_capability()
            found["capability"] = f"{major}.{minor}"
    except Exception as exc:  # noqa: BLE001 - a driver problem
        found["gpu_error"] = f"{type(exc).__name__}: {exc}"
    try:
        from torch.utils import cpp_extension

        cuda_home = cpp_extension.CUDA_HOME if torch.version.cuda else os.environ.get("CUDA_HOME")
        found["ninja"] = bool(cpp_extension.is_ninja_available())
    except Exception:  # noqa: BLE001
        cuda_home = os.environ.get("CUDA_HOME")
        found["ninja"] = shutil.which("ninja") is not None
    found["cuda_home"] = cuda_home
    nvcc = find_nvcc(cuda_home)
    if nvcc:
        found["nvcc_path"] = nvcc
        found["nvcc"] = nvcc_version(nvcc)
    return found


def main() -> int:
    sys.stdout.write(json.dumps(facts()) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
