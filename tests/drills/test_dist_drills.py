"""Parallelism drills (#24): N ranks through torch.distributed on gloo (CPU).

Each run starts the judge and world_size rank processes, so the runs are few and small:
the reference passes at 2 and 4 ranks (with the bandwidth sweep at 2), the starter fails,
one wrong rank is named with its index, the library collective is flagged, and a deadlock,
a crashing rank and a raising rank end every rank with the report the statement promises.
After every run no rank process is left and the rendezvous port is free again.
"""

from __future__ import annotations

import os
import re
import socket
import time
import uuid
from pathlib import Path

import pytest
import yaml

from studio.drills.catalog import get_drill
from studio.drills.runner import DrillRunner, RunRequest

FIXTURES = Path(__file__).resolve().parent / "dist_fixtures"
DIST_DRILLS = ("ring_allreduce", "ring_allgather")


MARK = f"STUDIO_DIST_TEST={uuid.uuid4().hex}"


def _rank_processes() -> list[int]:
    """Rank processes started by this test module's runs (marked in their environment)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                cmdline = handle.read()
            if b"studio.drills.harness.dist_rank" not in cmdline:
                continue
            with open(f"/proc/{name}/environ", "rb") as handle:
                if MARK.encode() in handle.read().split(b"\0"):
                    found.append(int(name))
        except OSError:
            continue
    return found


def _runner(**options) -> DrillRunner:
    key, value = MARK.split("=")
    return DrillRunner(env={**os.environ, key: value}, **options)


def _port_free(port: int) -> bool:
    """Nothing listens on it (connections of the run may linger in TIME_WAIT: SO_REUSEADDR)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def run(drill: str, solution, world_size: int, runner: DrillRunner | None = None, **options):
    options.setdefault("timeout_s", 120)
    messages = []
    request = RunRequest(drill=drill, solution=str(solution), world_size=world_size, seed=5, **options)
    result = (runner or _runner()).run(request, on_event=lambda e: messages.append(getattr(e, "message", "")))
    # nothing left behind: no rank process, and the port the ranks met at is free again
    deadline = time.monotonic() + 5
    while _rank_processes() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _rank_processes() == [], "rank processes outlived the run"
    ports = [int(m.group(1)) for m in (re.search(r"meeting at 127\.0\.0\.1:(\d+)", str(x)) for x in messages) if m]
    assert ports, messages
    assert all(_port_free(p) for p in ports)
    return result


@pytest.mark.parametrize("drill_id", DIST_DRILLS)
def test_parallelism_drill_folder_is_complete(drill_id):
    drill = get_drill(drill_id)
    assert drill.distributed and drill.distributed["collective"] and drill.languages == ["torch"]
    assert drill.starter_triton is None and drill.starter_cuda is None
    source = drill.starter("torch").read_text()
    assert re.search(rf'def {drill.entry}\(.*?\).*?:\n\s+"""', source, re.S) and "raise NotImplementedError" in source
    assert set(drill.reference_ops["torch"]) >= {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"}
    assert drill.to_request()["distributed"]["case_timeout_s"] > 0


@pytest.mark.parametrize("world_size", [2, 4])
@pytest.mark.parametrize("drill_id", DIST_DRILLS)
def test_reference_solution_passes(drill_id, world_size):
    bench = world_size == 2
    result = run(drill_id, "@solution", world_size, bench=bench)
    failures = [(c.name, c.error) for c in result.cases if not c.passed]
    assert result.status == "passed", (failures, result.error, result.flag_names(), result.console.stderr[-2000:])
    assert result.world_size == world_size and result.backend == "gloo" and result.mode == "cpu"
    assert all(len(c.ranks) == world_size and all(r["passed"] for r in c.ranks) for c in result.cases)
    if bench:
        drill = get_drill(drill_id)
        points = result.bench.points
        assert len(points) == len(drill.bench_shapes) * len(drill.bench_dtypes)
        assert "gloo" in result.bench.note and "gloo" in points[0].baseline
        for p in points:
            assert p.passed and p.ms > 0 and p.ref_ms > 0
            # nccl-tests: algbw = S / t; busbw = algbw x 2(n-1)/n (all-reduce) or (n-1)/n (all-gather)
            factor = {"all_reduce": 2 * (world_size - 1) / world_size,
                      "all_gather": (world_size - 1) / world_size}[drill.distributed["collective"]]
            assert p.algbw == pytest.approx(p.bytes / (p.ms * 1e-3) / 1e9)
            assert p.gbps == pytest.approx(p.algbw * factor)
            assert p.ref_gbps == pytest.approx(p.bytes / (p.ref_ms * 1e-3) / 1e9 * factor)
        assert [c.phase for c in result.cases].count("recheck") == len(drill.cases)


@pytest.mark.parametrize("drill_id", DIST_DRILLS)
def test_starter_fails_with_its_traceback(drill_id):
    result = run(drill_id, "@starter-torch", 2)
    assert result.status == "failed" and result.cli_exit_code == 1
    case = result.cases[0]
    assert not case.passed and "NotImplementedError" in case.error and "starter_torch.py, line" in case.error
    assert "every rank was ended" in case.error


def test_wrong_rank_is_named_with_its_index():
    result = run("ring_allreduce", FIXTURES / "ring_wrong_rank.py", 4)
    assert result.status == "failed"
    case = next(c for c in result.cases if c.name == "odd-1823")
    assert "rank 2:" in case.error and "first at [3]" in case.error and "ranks 0, 1, 3 correct" in case.error
    assert [r["passed"] for r in case.ranks] == [True, True, False, True]


def test_library_collective_is_flagged():
    result = run("ring_allreduce", FIXTURES / "ring_library.py", 2)
    assert all(c.passed for c in result.cases)
    assert result.status == "failed" and "calls_reference" in result.flag_names()
    assert "all_reduce" in result.flags[0].detail and "rank 0" in result.flags[0].detail


def test_deadlock_reports_what_each_rank_waits_on(kernels_copy):
    path = kernels_copy / "ring_allreduce" / "drill.yaml"
    data = yaml.safe_load(path.read_text())
    data["distributed"]["case_timeout_s"] = 4
    path.write_text(yaml.safe_dump(data))
    result = run("ring_allreduce", FIXTURES / "ring_deadlock.py", 2, runner=_runner(kernels_dir=kernels_copy))
    assert result.status == "deadlock" and result.cli_exit_code == 2, result.error
    message = result.error.message
    assert "within 4 s" in message and "Every rank was ended" in message
    assert re.search(r"rank 0: waiting in recv\(float32\[1\], src=1\) for \d", message), message
    assert re.search(r"rank 1: waiting in recv\(float32\[1\], src=0\)", message), message


def test_crashing_rank_ends_every_rank():
    result = run("ring_allreduce", FIXTURES / "ring_crash.py", 2)
    assert result.status == "crash" and result.cli_exit_code == 2
    assert "rank 1 died (exit code 7)" in result.error.message and "every rank was ended" in result.error.message


def test_raising_rank_ends_every_rank_with_its_traceback():
    result = run("ring_allreduce", FIXTURES / "ring_raises.py", 2)
    assert result.status == "failed"
    case = result.cases[0]
    assert "rank 1 raised ValueError: rank one gave up (ring_raises.py, line 9)" in case.error
    assert case.ranks[1]["error"].startswith("raised ValueError") and "ended when rank 1 raised" in case.ranks[0]["error"]
    assert len(result.cases) == 1      # the run stops there


def test_world_size_outside_the_drill_range_is_refused():
    result = _runner().run(RunRequest(drill="ring_allreduce", solution="@solution", world_size=9))
    assert result.status == "bad_request" and "2 to 8 ranks" in result.error.message


def test_a_hang_after_a_returned_p2p_call_on_nccl_gets_the_batching_hint():
    # On NCCL, isend/recv return once queued on the GPU: the ranks of the H100 run that
    # deadlocked sat 'in their own code'. The report then says why and what to do; on gloo
    # (where the op itself blocks) and for a rank still inside a call it adds nothing.
    from types import SimpleNamespace

    from studio.drills.harness.dist import DistJudge

    stuck = "rank 0: in its own code, 29.8 s after wait for isend(float32[1], dst=1) returned (call #3)"
    hint = DistJudge._nccl_hint(SimpleNamespace(backend="nccl"), stuck)
    assert "batch_isend_irecv" in hint and "queued on the GPU" in hint
    assert DistJudge._nccl_hint(SimpleNamespace(backend="gloo"), stuck) == ""
    assert DistJudge._nccl_hint(SimpleNamespace(backend="nccl"), "rank 0: waiting in recv(float32[1], src=1)") == ""
