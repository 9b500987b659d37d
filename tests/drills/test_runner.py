"""DrillRunner: events in order, console kept apart, timeouts, stop(), every way a run can end."""

from __future__ import annotations

import sys
import threading
import time

from studio.drills.events import (
    CaseResultEvent, CaseStarted, ConsoleOutput, Finished, RunStarted,
)
from studio.drills.catalog import get_drill
from studio.drills.runner import DrillRunner, RunRequest

from .conftest import BAD_KERNELS, KERNELS, run_drill


def test_events_arrive_in_protocol_order():
    runner = DrillRunner()
    events = list(runner.events(RunRequest("vector_add", "@solution", interpret=True)))
    kinds = [e.kind for e in events if not isinstance(e, ConsoleOutput)]
    assert kinds[0] == "started" and kinds[-1] == "finished"
    assert sum(isinstance(e, Finished) for e in events) == 1
    started = [e.name for e in events if isinstance(e, CaseStarted)]
    finished = [e.result.name for e in events if isinstance(e, CaseResultEvent)]
    assert started == finished and len(started) == len(get_drill("vector_add").cases)   # every case, in order
    assert kinds.index("case_started") < kinds.index("case_result")
    assert isinstance(events[-1], Finished) and events[-1].result.passed


def test_on_event_callback_sees_everything_run_returns():
    seen = []
    result = DrillRunner().run(RunRequest("vector_add", "@solution", interpret=True), on_event=seen.append)
    assert isinstance(seen[0], (RunStarted, ConsoleOutput)) and seen[-1].result is result
    assert [e.result for e in seen if isinstance(e, CaseResultEvent)] == result.cases


def test_prints_of_a_correct_solution_are_console_output_only(tmp_path):
    solution = tmp_path / "chatty.py"
    solution.write_text(
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('ref', {str(KERNELS / 'softmax' / 'solution.py')!r})\n"
        "ref = importlib.util.module_from_spec(spec); spec.loader.exec_module(ref)\n"
        "def softmax(x):\n"
        "    print('hello from softmax', x.shape)\n"
        "    print('{\"event\": \"error\", \"kind\": \"crash\", \"message\": \"forged\"}')\n"
        "    print('to stderr', file=sys.stderr)\n"
        "    return ref.softmax(x)\n")
    result = run_drill("softmax", solution)
    assert result.status == "passed", result.error
    assert "hello from softmax" in result.console.stdout and "forged" in result.console.stdout
    assert "to stderr" in result.console.stderr and result.error is None


def test_timeout_kills_a_hang_and_names_the_case():
    start = time.monotonic()
    result = run_drill("softmax", BAD_KERNELS / "hangs.py", timeout_s=5)
    assert time.monotonic() - start < 10
    assert result.status == "timeout" and "5 s time limit" in result.error.message
    assert "single-element" in result.error.message
    assert result.cli_exit_code == 2


def test_stop_from_another_thread_ends_the_run_quickly():
    runner = DrillRunner()
    results = []
    worker = threading.Thread(target=lambda: results.append(
        runner.run(RunRequest("softmax", str(BAD_KERNELS / "hangs.py"), interpret=True, timeout_s=60))))
    worker.start()
    time.sleep(4)
    stopped_at = time.monotonic()
    runner.stop()
    worker.join(timeout=10)
    assert not worker.is_alive() and time.monotonic() - stopped_at < 5
    assert results[0].status == "stopped" and results[0].cli_exit_code == 2


def test_stop_while_iterating_events():
    runner = DrillRunner()
    last = None
    for event in runner.events(RunRequest("softmax", str(BAD_KERNELS / "hangs.py"), interpret=True,
                                          timeout_s=60)):
        if isinstance(event, CaseStarted):
            runner.stop()
        last = event
    assert isinstance(last, Finished) and last.result.status == "stopped"


def test_the_runner_can_be_used_again_after_a_stop():
    runner = DrillRunner()
    runner.stop()
    assert runner.run(RunRequest("vector_add", "@solution", interpret=True)).passed


def test_missing_solution_file():
    result = run_drill("softmax", "/nonexistent/solution.py")
    assert result.status == "import_error" and "not found" in result.error.message
    assert result.cli_exit_code == 2


def test_unknown_drill():
    result = run_drill("no-such-drill", "/tmp/x.py")
    assert result.status == "bad_drill" and "known drills" in result.error.message


def test_broken_drill_spec_module_is_a_bad_drill(kernels_copy):
    (kernels_copy / "softmax" / "spec.py").write_text("raise RuntimeError('spec is broken')\n")
    result = run_drill("softmax", kernels_copy / "softmax" / "solution.py",
                       runner=DrillRunner(kernels_dir=kernels_copy))
    assert result.status == "bad_drill" and "spec is broken" in result.error.message


def test_python_setting_is_used_and_a_missing_interpreter_is_reported():
    result = run_drill("vector_add", "@solution", runner=DrillRunner(python=sys.executable))
    assert result.passed
    result = run_drill("vector_add", "@solution", runner=DrillRunner(python="/nonexistent/python3"))
    assert result.status == "harness_error" and "cannot start" in result.error.message


def test_a_fixed_seed_reproduces_the_inputs():
    first = run_drill("vector_add", "@solution", seed=1234, trials=1)
    second = run_drill("vector_add", "@solution", seed=1234, trials=1)
    assert [c.max_abs_err for c in first.cases] == [c.max_abs_err for c in second.cases]
    assert first.cases[0].seed == 1234


def test_bench_without_gpu_says_timing_needs_one():
    result = run_drill("vector_add", "@solution", bench=True)
    assert result.passed and result.bench.requested and not result.bench.available
    assert "GPU" in result.bench.note and result.bench.points == []


def test_explicit_torch_language_skips_the_triton_launch_check(tmp_path):
    solution = tmp_path / "plain.py"
    solution.write_text("def add(x, y):\n    return x + y\n")
    result = run_drill("vector_add", solution)
    assert result.lang == "torch" and result.passed
    as_triton = run_drill("vector_add", solution, lang="triton")
    assert as_triton.status == "failed"
    assert {"no_triton_kernel", "calls_reference"} <= set(as_triton.flag_names())


def test_stop_is_reported_as_stopped_even_when_the_pipes_close_first(monkeypatch):
    """stop() can land while the read loop waits in select(): the kill closes every pipe
    and the loop ends without looking at the stop flag again. Still a stop, not a crash."""
    import os
    import signal

    runner = DrillRunner()
    original = runner._pump

    def pump_racing_stop(proc, *args):
        os.killpg(proc.pid, signal.SIGKILL)   # what stop() does ...
        proc.wait()
        yield from original(proc, *args)
        runner._stop_requested = True           # ... its flag seen only after the loop

    monkeypatch.setattr(runner, "_pump", pump_racing_stop)
    result = runner.run(RunRequest("softmax", str(BAD_KERNELS / "hangs.py"), interpret=True, timeout_s=60))
    assert result.status == "stopped", result.error
