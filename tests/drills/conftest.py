"""Fixtures for the drill tests: run a drill in interpreter mode, find kernels and bad kernels.

Every run goes through the real DrillRunner and a real child process, forced into
Triton's interpreter so the results are the same with or without a GPU.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.drills.result import RunResult
from studio.drills.runner import DrillRunner, RunRequest

REPO = Path(__file__).resolve().parents[2]
KERNELS = REPO / "kernels"
BAD_KERNELS = Path(__file__).resolve().parent / "bad_kernels"
DRILL_IDS = ("vector_add", "softmax", "layernorm", "rmsnorm")


def run_drill(drill: str, solution: str | Path, *, runner: DrillRunner | None = None,
              **options) -> RunResult:
    """Run `solution` against `drill` in interpreter mode and return the result."""
    options.setdefault("interpret", True)
    options.setdefault("timeout_s", 90)
    request = RunRequest(drill=drill, solution=str(solution), **options)
    return (runner or DrillRunner()).run(request)


@pytest.fixture
def kernels_copy(tmp_path) -> Path:
    """A private copy of kernels/ that a test may break."""
    import shutil

    target = tmp_path / "kernels"
    shutil.copytree(KERNELS, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target
