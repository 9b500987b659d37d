"""Submissions written to cheat must never pass; unusual honest ones must.

The judge and the user's code run in separate processes (harness/judge.py, worker.py), so
most of these fail for a structural reason: what they patch, read or forge is not in the
process that decides. Each file in cheats/ says what it tries; GPU-only ones are run on a
GPU by bench/drills_gpu_check.py and their verdicts recorded in bench/results.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from studio.drills.harness import sandbox

from .conftest import run_drill
from .test_bad_kernels import _processes_running

CHEATS = Path(__file__).resolve().parent / "cheats"
HONEST = Path(__file__).resolve().parent / "honest"


@dataclass
class Cheat:
    status: str | tuple[str, ...]    # the run's status (one of them)
    text: str = ""                   # in the first failing case's error, or the run's error
    flag: str | None = None          # a blocking flag the run must carry
    gpu_only: bool = False
    trials: int = 1


CHEAT_VERDICTS = {
    "forge_events": Cheat("crash"),      # garbage on the reply pipe, or the exit itself
    "patch_compare": Cheat("failed", "out of tolerance"),
    "patch_isfinite": Cheat("failed", "out of tolerance"),
    "patch_builtins": Cheat("failed"),
    "poison_reference": Cheat("failed", "out of tolerance"),
    "trivial_inputs": Cheat("failed", "out of tolerance"),
    "reference_from_frames": Cheat("failed", "out of tolerance"),
    "reference_from_gc": Cheat("failed", "out of tolerance"),
    "imports_reference": Cheat("failed", flag="calls_reference"),
    "reference_in_thread": Cheat("failed", flag="calls_reference"),
    "reference_overrides_off": Cheat("failed", flag="calls_reference"),
    "reference_inference_mode": Cheat("failed", flag="calls_reference"),
    "decoy_torch_math": Cheat("failed", flag="output_not_from_kernel"),
    "decoy_numpy": Cheat("failed", flag="output_not_from_kernel"),
    "returns_subclass": Cheat("failed", "torch.Tensor subclass"),
    "returns_input": Cheat("failed", "returned its input"),
    "same_buffer": Cheat("failed", "same buffer as the previous call", trials=2),
    "mutates_and_hides": Cheat("failed", "modified its input `x`"),
    # Refused with Landlock ABI 6 (then an ordinary failure); elsewhere the judge dies.
    "kills_judge": Cheat(("failed", "crash")),
    "gpu_side_stream": Cheat("failed", flag="invalid_timing", gpu_only=True),
    # Caught before any timing: the copy it hands back was not written by a kernel of its
    # own (seen on the H100 and the H200: bench/results/drills_isolation_gpu.md, cheats_gpu.md).
    "gpu_skips_after_first": Cheat("failed", flag="output_not_from_kernel", gpu_only=True),
    "gpu_computes_when_watched": Cheat("failed", flag="invalid_timing", gpu_only=True),
}
# Not cheats that must fail, but cheats that must not work: checked in their own tests.
OTHER_FIXTURES = {"escapes_process_group", "memory_hog", "writes_outside", "gpu_patches_timer"}


def test_every_cheat_has_an_expectation():
    files = {p.stem for p in CHEATS.glob("*.py") if not p.stem.startswith("_")}
    assert files == set(CHEAT_VERDICTS) | OTHER_FIXTURES


@pytest.mark.parametrize("name", sorted(CHEAT_VERDICTS))
def test_cheat_never_passes(name):
    expect = CHEAT_VERDICTS[name]
    if expect.gpu_only:
        pytest.skip("GPU only: run by bench/drills_gpu_check.py, verdicts in bench/results")
    result = run_drill("softmax", CHEATS / f"{name}.py", trials=expect.trials)
    assert not result.passed
    allowed = expect.status if isinstance(expect.status, tuple) else (expect.status,)
    assert result.status in allowed, (result.status, result.error, result.flag_names())
    if expect.flag:
        assert expect.flag in result.flag_names()
        flag = next(f for f in result.flags if f.name == expect.flag)
        assert flag.blocking
    if expect.text:
        failing = [c.error for c in result.cases if not c.passed]
        where = failing[0] if failing else result.error.message
        assert expect.text in where, where
    assert result.cli_exit_code in (1, 2)


def test_a_forged_report_never_reaches_the_result():
    result = run_drill("softmax", CHEATS / "forge_events.py", trials=1)
    assert result.status == "crash" and not any(c.passed for c in result.cases)


def test_a_daemon_that_left_the_process_group_is_killed_with_the_run():
    result = run_drill("softmax", CHEATS / "escapes_process_group.py", trials=1)
    assert result.passed, result.error   # correct, and its daemon changes nothing ...
    assert not _processes_running("studio-cheat-daemon")   # ... and does not outlive the run


def test_runaway_memory_is_stopped_with_a_plain_message():
    result = run_drill("softmax", CHEATS / "memory_hog.py", trials=1, memory_limit_gib=1.5)
    assert result.status == "memory_limit", (result.status, result.error)
    assert "more than 1.5 GiB" in result.error.message
    assert result.cli_exit_code == 2


@pytest.mark.skipif(sandbox.landlock_abi() <= 0, reason="needs Landlock (Linux 5.13+)")
def test_the_solution_cannot_write_the_users_files(tmp_path, monkeypatch):
    target = tmp_path / "collection.sqlite"
    target.write_text("history")
    monkeypatch.setenv("STUDIO_CHEAT_TARGET", str(target))
    result = run_drill("softmax", CHEATS / "writes_outside.py", trials=1)
    assert target.read_text() == "history"
    assert not result.passed and "PermissionError" in result.cases[0].error


# (drill, file in honest/): unusual solutions that must pass with no flag (also judged on a GPU
# by bench/cheats_gpu_check.py, which imports this list).
HONEST_SOLUTIONS = [
    ("softmax", "softmax_two_kernels"),
    ("softmax", "softmax_kernel_cache"),
    ("layernorm", "layernorm_welford"),
    ("softmax", "softmax_tensor_descriptor"),     # output written through a TMA descriptor
]


@pytest.mark.parametrize("drill, name", HONEST_SOLUTIONS)
def test_unusual_honest_solutions_still_pass(drill, name):
    result = run_drill(drill, HONEST / f"{name}.py", trials=1)
    assert result.passed, (result.status, result.error, result.flag_names(),
                           [c.error for c in result.cases if not c.passed])
    assert not result.flags


def test_a_solution_that_raises_is_not_taken_for_tampering():
    from .conftest import BAD_KERNELS

    result = run_drill("softmax", BAD_KERNELS / "exits_cleanly.py", trials=1)
    assert result.status == "failed" and result.flag_names() == []
