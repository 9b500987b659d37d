"""Parallelism drills of training (#24): pipeline 1F1B, ZeRO-1 Adam, ring attention.

Same harness as tests/drills/test_dist_drills.py (whose `run` also checks that no rank
process and no port outlives a run): at gloo world size 2 and 4 each reference passes and
each starter fails, and the drill's typical pitfall (tests/drills/dist_fixtures) is caught
with a message that says what is wrong.
"""

from __future__ import annotations

import re

import pytest

from studio.drills.catalog import get_drill

from .test_dist_drills import FIXTURES, run

TRAINING_DRILLS = ("pipeline_1f1b", "zero1_adam", "ring_attention")


@pytest.mark.parametrize("drill_id", TRAINING_DRILLS)
def test_training_drill_folder_is_complete(drill_id):
    drill = get_drill(drill_id)
    assert drill.distributed and drill.languages == ["torch"] and drill.starter_cuda is None
    source = drill.starter("torch").read_text()
    assert re.search(rf'def {drill.entry}\(.*?\).*?:\n\s+"""', source, re.S) and "raise NotImplementedError" in source
    assert "zh" in drill.statements


@pytest.mark.parametrize("world_size", [2, 4])
@pytest.mark.parametrize("drill_id", TRAINING_DRILLS)
def test_reference_solution_passes(drill_id, world_size):
    result = run(drill_id, "@solution", world_size)
    failures = [(c.name, c.error) for c in result.cases if not c.passed]
    assert result.status == "passed", (failures, result.error, result.flag_names(), result.console.stderr[-2000:])
    assert result.world_size == world_size and result.backend == "gloo"
    drill = get_drill(drill_id)
    assert [c.name for c in result.cases] == [c["name"] for c in drill.cases]
    assert all(len(c.ranks) == world_size and all(r["passed"] for r in c.ranks) for c in result.cases)
    if drill_id == "pipeline_1f1b":
        for case, spec in zip(result.cases, drill.cases):
            m = spec["microbatches"]
            ideal = (world_size - 1) / (m + world_size - 1)
            assert f"vs (p-1)/(m+p-1) = {world_size - 1}/{m + world_size - 1} = {ideal:.2f}" in case.note
            idle = [r["idle_fraction"] for r in case.ranks]
            assert all(0.0 <= f <= 1.0 for f in idle) and all(0 < r["comm_s"] <= r["seconds"] for r in case.ranks)
            assert f"measured idle {sum(idle) / len(idle):.2f}" in case.note


@pytest.mark.parametrize("drill_id", TRAINING_DRILLS)
def test_starter_fails_with_its_traceback(drill_id):
    result = run(drill_id, "@starter-torch", 2)
    assert result.status == "failed" and result.cli_exit_code == 1
    case = result.cases[0]
    assert "NotImplementedError" in case.error and "starter_torch.py, line" in case.error


def test_pipeline_gpipe_schedule_is_caught():
    """All forwards then all backwards: right gradients, wrong schedule (m stashed activations)."""
    result = run("pipeline_1f1b", FIXTURES / "pipeline_gpipe.py", 2)
    assert result.status == "failed"
    by_name = {c.name: c for c in result.cases}
    assert by_name["one-microbatch"].passed          # with m = 1 both schedules are F0 B0
    case = by_name["uneven-split"]                   # m = 4, p = 2: stage 1 runs 1 -1 2 -2 ...
    assert "rank 1: `schedule` wrong at" in case.error and "first at [1]: got 2, expected -1" in case.error
    assert case.ranks[0]["passed"] is False and "`schedule`" in case.ranks[0]["error"]


def test_pipeline_loss_averaged_per_microbatch_is_caught():
    result = run("pipeline_1f1b", FIXTURES / "pipeline_microbatch_mean.py", 2)
    assert result.status == "failed"
    by_name = {c.name: c for c in result.cases}
    assert by_name["one-microbatch"].passed          # one micro-batch: its mean is the batch's
    case = by_name["many-microbatches"]
    assert all(not r["passed"] and r["error"].startswith("`grad_weight` wrong at") for r in case.ranks), case.ranks


def test_zero1_shards_of_n_floor_are_caught():
    """N // n shards: the tail is never updated and rank 1's slice starts before its state shard."""
    result = run("zero1_adam", FIXTURES / "zero1_floor_shards.py", 2)
    assert result.status == "failed"
    case = next(c for c in result.cases if c.name == "odd-7")    # c = 3 instead of 4
    assert all(not r["passed"] and r["error"].startswith("`param` wrong at") and "first at [3]" in r["error"]
               for r in case.ranks), case.ranks
    assert next(c for c in result.cases if c.name == "first-step").passed    # 1000 = 2 x 500: both splits agree


def test_ring_attention_merge_without_rescale_is_caught():
    """Online softmax without exp(m_old - m_new): right with one block only."""
    result = run("ring_attention", FIXTURES / "ring_attention_no_rescale.py", 2)
    assert result.status == "failed" and not any(c.passed for c in result.cases)
    causal = next(c for c in result.cases if c.name == "causal-long")    # rank 0 sees its own block only
    assert causal.error.startswith("rank 1: `out` wrong at") and causal.error.endswith("(rank 0 correct)")
    assert [r["passed"] for r in causal.ranks] == [True, False]
    full = next(c for c in result.cases if c.name == "large-logits")
    assert all(not r["passed"] and r["error"].startswith("`out` wrong at") for r in full.ranks)
