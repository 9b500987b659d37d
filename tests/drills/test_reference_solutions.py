"""Every drill's reference solution passes in interpreter mode; every starter fails cleanly."""

from __future__ import annotations

import pytest

from studio.drills.catalog import get_drill

from .conftest import DRILL_IDS, run_drill


@pytest.mark.parametrize("drill_id", DRILL_IDS)
def test_reference_solution_passes_in_interpreter_mode(drill_id):
    result = run_drill(drill_id, "@solution")
    failures = [(c.name, c.error) for c in result.cases if not c.passed]
    assert result.status == "passed", (failures, result.error, result.flag_names(), result.console.stderr[-2000:])
    assert result.mode == "interpreter" and result.lang == "triton"
    assert len(result.cases) == len(get_drill(drill_id).cases)
    assert all(c.trials == get_drill(drill_id).trials for c in result.cases)
    assert result.flags == [] and result.cli_exit_code == 0
    assert result.versions["torch"] and result.versions["triton"]


@pytest.mark.parametrize("drill_id", DRILL_IDS)
@pytest.mark.parametrize("lang", ["triton", "torch"])
def test_starter_fails_cleanly(drill_id, lang):
    result = run_drill(drill_id, f"@starter-{lang}", lang=lang)
    assert result.status == "failed" and result.cli_exit_code == 1
    assert result.error is None, result.error
    assert result.cases and not any(c.passed for c in result.cases)
    for case in result.cases:
        assert "NotImplementedError" in case.error and f"starter_{lang}.py, line" in case.error
    assert "Traceback" not in result.console.stderr
