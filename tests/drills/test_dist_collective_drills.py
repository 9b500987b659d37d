"""Parallelism drills (#24), more collectives and a parallel layer: ring_reduce_scatter,
moe_all_to_all, tp_mlp.

Same harness as tests/drills/test_dist_drills.py (whose `run` also checks that no rank
process and no port outlives a run): at gloo world size 2 and 4 each reference passes
(with the bandwidth sweep at 2 where the drill has one) and each starter fails; the
drill's typical pitfall (tests/drills/dist_fixtures) is caught with a message naming the
wrong ranks, and the library collective is flagged, also under torch 2.13's new names.
"""

from __future__ import annotations

import re

import pytest
import yaml

from studio.drills.catalog import get_drill
from studio.drills.harness.dist_common import bus_factor

from .test_dist_drills import FIXTURES, _runner, run

DRILLS = ("ring_reduce_scatter", "moe_all_to_all", "tp_mlp")


@pytest.mark.parametrize("drill_id", DRILLS)
def test_drill_folder_is_complete(drill_id):
    drill = get_drill(drill_id)
    assert drill.distributed and drill.languages == ["torch"]
    assert drill.starter_triton is None and drill.starter_cuda is None
    source = drill.starter("torch").read_text()
    assert re.search(rf'def {drill.entry}\(.*?\).*?:\n\s+"""', source, re.S) and "raise NotImplementedError" in source
    assert "zh" in drill.statements
    banned = set(drill.reference_ops["torch"])
    assert banned >= {"reduce_scatter_tensor", "reduce_scatter_single", "all_to_all_single",
                      "all_gather_into_tensor", "all_gather_single"}
    if drill_id == "tp_mlp":     # the drill's own collective, counted instead (distributed.calls)
        assert "all_reduce" not in banned and {"send", "recv", "isend"} <= banned
        assert drill.distributed["calls"] == {"all_reduce": 2} and drill.distributed["calls_note"]
    else:
        assert "all_reduce" in banned and "calls" not in drill.distributed


@pytest.mark.parametrize("world_size", [2, 4])
@pytest.mark.parametrize("drill_id", DRILLS)
def test_reference_solution_passes(drill_id, world_size):
    drill = get_drill(drill_id)
    bench = world_size == 2 and bool(drill.bench_shapes)
    result = run(drill_id, "@solution", world_size, bench=bench)
    failures = [(c.name, c.error) for c in result.cases if not c.passed]
    assert result.status == "passed", (failures, result.error, result.flag_names(), result.console.stderr[-2000:])
    assert result.world_size == world_size and result.backend == "gloo"
    checked = [c for c in result.cases if c.phase == "check"]
    assert [c.name for c in checked] == [c["name"] for c in drill.cases]
    assert all(len(c.ranks) == world_size and all(r["passed"] for r in c.ranks) for c in result.cases)
    if bench:
        points = result.bench.points
        factor = bus_factor(drill.distributed["collective"], world_size)
        assert len(points) == len(drill.bench_shapes) * len(drill.bench_dtypes)
        assert "gloo" in result.bench.note and drill.distributed["library"] in points[0].baseline
        for p in points:
            assert p.passed and p.ms > 0 and p.ref_ms > 0
            assert p.algbw == pytest.approx(p.bytes / (p.ms * 1e-3) / 1e9)
            assert p.gbps == pytest.approx(p.algbw * factor)
            assert p.ref_gbps == pytest.approx(p.bytes / (p.ref_ms * 1e-3) / 1e9 * factor)


@pytest.mark.parametrize("drill_id", DRILLS)
def test_starter_fails_with_its_traceback(drill_id):
    result = run(drill_id, "@starter-torch", 2)
    assert result.status == "failed" and result.cli_exit_code == 1
    case = result.cases[0]
    assert "NotImplementedError" in case.error and "starter_torch.py, line" in case.error


def test_reduce_scatter_with_the_allreduce_indices_is_caught():
    """The all-reduce's reduce-scatter leaves chunk r+1 on rank r: right sums, wrong rank."""
    result = run("ring_reduce_scatter", FIXTURES / "rs_allreduce_indices.py", 4)
    assert result.status == "failed"
    case = next(c for c in result.cases if c.name == "odd-7")
    assert [r["passed"] for r in case.ranks] == [False] * 4
    assert all(r["error"].startswith("`out` wrong at 7 of 7 elements") for r in case.ranks), case.ranks


def test_reduce_scatter_single_is_flagged():
    """torch 2.13 renamed reduce_scatter_tensor to reduce_scatter_single: both are seen."""
    result = run("ring_reduce_scatter", FIXTURES / "rs_library.py", 2)
    assert all(c.passed for c in result.cases)
    assert result.status == "failed" and "calls_reference" in result.flag_names()
    detail = result.flags[0].detail
    assert re.search(r"reduce_scatter_(single|tensor)", detail) and "rank 0" in detail and "rank 1" in detail


def test_moe_dispatch_grouped_by_rank_only_is_caught():
    """Sorted by destination rank, not by expert: right tokens, right rank, wrong order."""
    result = run("moe_all_to_all", FIXTURES / "moe_by_rank_only.py", 2)
    assert result.status == "failed"
    by_name = {c.name: c for c in result.cases}
    assert by_name["one-token"].passed                   # one token: nothing to order
    case = by_name["random-2-experts"]
    assert all(not r["passed"] and r["error"].startswith("`tokens` wrong at") for r in case.ranks), case.ranks
    assert not by_name["all-local"].passed               # wrong even with no message at all


def test_moe_dispatch_without_the_count_exchange_is_caught(kernels_copy):
    """Receive sizes guessed from the send sizes: a rank waits for tokens never sent."""
    path = kernels_copy / "moe_all_to_all" / "drill.yaml"
    data = yaml.safe_load(path.read_text())
    data["distributed"]["case_timeout_s"] = 4
    path.write_text(yaml.safe_dump(data))
    result = run("moe_all_to_all", FIXTURES / "moe_no_counts.py", 2, runner=_runner(kernels_dir=kernels_copy))
    assert result.status == "deadlock", (result.status, result.error)
    message = result.error.message
    assert "within 4 s while running case 'one-token'" in message, message
    assert re.search(r"rank \d: waiting in wait for batch_isend_irecv\(\[isend->\d float32\[1, 8\]", message), message


def test_tp_mlp_bias_added_before_the_all_reduce_is_caught():
    result = run("tp_mlp", FIXTURES / "tp_bias_before_reduce.py", 2)
    assert result.status == "failed" and not any(c.passed for c in result.cases)
    case = result.cases[0]
    assert all(r["error"].startswith("`y` wrong at") for r in case.ranks), case.ranks


def test_tp_mlp_forward_only_all_reduce_leaves_grad_x_partial():
    result = run("tp_mlp", FIXTURES / "tp_no_backward_reduce.py", 2)
    assert result.status == "failed"
    case = next(c for c in result.cases if c.name == "odd-sizes")
    assert all(r["error"].startswith("`grad_x` wrong at") for r in case.ranks), case.ranks


def test_tp_mlp_counts_its_all_reduces():
    """Right values, a third all-reduce: the case fails on every rank with the count."""
    result = run("tp_mlp", FIXTURES / "tp_extra_reduce.py", 2)
    assert result.status == "failed" and not any(c.passed for c in result.cases)
    for case in result.cases:
        assert all(r["error"].startswith("called torch.distributed.all_reduce 3 times (expected 2) in one call: "
                                          "Megatron's MLP needs one all-reduce in the forward pass")
                   for r in case.ranks), case.ranks
        assert case.error.startswith("rank 0: called torch.distributed.all_reduce 3 times")


def test_distributed_calls_is_checked_when_the_drill_loads():
    from studio.drills.catalog import DrillError, _parse_distributed

    assert _parse_distributed({"calls": {"all_reduce": 2}, "calls_note": "why"})["calls"] == {"all_reduce": 2}
    assert "calls" not in _parse_distributed({})
    for bad in ({"all_reduce": -1}, {"all_reduce": "2"}, ["all_reduce"], {"all_reduce": True}):
        with pytest.raises(DrillError, match="distributed.calls"):
            _parse_distributed({"calls": bad})


def test_all_gather_single_is_flagged_in_ring_allgather():
    """The ring drills ban torch 2.13's new names too (all_gather_single, reduce_scatter_single)."""
    result = run("ring_allgather", FIXTURES / "ag_single.py", 2)
    assert result.status == "failed" and "calls_reference" in result.flag_names(), (result.status, result.error)
    assert re.search(r"all_gather_(single|into_tensor)", result.flags[0].detail)
