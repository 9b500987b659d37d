"""Impossible timings are never results (#21), on synthetic timings: no GPU needed.

A submission that launched its kernel on a side CUDA stream, never joined to the caller's,
passed on the H100 and was timed at 91 TB/s (30x the copy bandwidth). The judge catches it
two ways: the escape probe (device-synchronised calls: host time beyond the events is work
the events did not see) and the peak check (no figure above the measured copy bandwidth or
matmul throughput beyond the noise). Both apply under every timing protocol; the GPU run of
tests/drills/bad_kernels/softmax_side_stream.py checks them end to end.
"""

from __future__ import annotations

import time

import pytest

torch = pytest.importorskip("torch")

from studio.drills.harness import judge as judge_module  # noqa: E402
from studio.drills.harness import timing  # noqa: E402

N = timing.PROBE_CALLS
PEAKS = {"copy_gbps": 3000.0, "matmul_tflops": 750.0}


def _side(event_ms: float, host_ms: float, judge_ms: float | None = None):
    return ([event_ms] * N, [host_ms] * N, judge_ms if judge_ms is not None else 2 * N * host_ms)


def test_honest_call_leaves_nothing_outside_its_events():
    # empty call: 5 us of events, 15 us on the host (the synchronise); a 50 us kernel: 61 us
    escaped, wall = timing.probe_escape({"empty": _side(0.005, 0.015), "kernel": _side(0.050, 0.061)}, N)
    assert escaped == pytest.approx(0.001) and wall == pytest.approx(0.061)
    assert timing.judge_timing(escaped, 0.050, {"gbps": 2800.0}, PEAKS) is None


def test_side_stream_work_escapes_the_events():
    # the events see only the launch (2 us); the device stays busy 48 us more
    escaped, _ = timing.probe_escape({"empty": _side(0.005, 0.015), "kernel": _side(0.002, 0.060)}, N)
    assert escaped == pytest.approx(0.048)
    assert "work escaped the timed region" in timing.judge_timing(escaped, 0.002, {}, PEAKS)


def test_probe_replies_that_cannot_be_true():
    ok = _side(0.005, 0.015)
    assert "malformed" in timing.probe_escape({"empty": ok, "kernel": ([0.05] * (N - 1), [0.06] * N, 10.0)}, N)
    assert "malformed" in timing.probe_escape({"empty": ok, "kernel": ([0.05] * N, [-1.0] * N, 10.0)}, N)
    assert "malformed" in timing.probe_escape({"empty": ok, "kernel": (None, [0.06] * N, 10.0)}, N)
    # the worker claims 20 x 60 us of calls while the judge's clock saw 0.5 ms pass
    lie = timing.probe_escape({"empty": ok, "kernel": ([0.05] * N, [0.06] * N, 0.5)}, N)
    assert "within 0.50 ms of the judge's clock" in lie


def test_figures_above_the_measured_peaks_beyond_the_noise_are_invalid():
    assert timing.judge_timing(0.0, 0.01, {"gbps": 3300.0}, PEAKS) is None        # 110%: noise
    assert "copy bandwidth" in timing.judge_timing(0.0, 0.01, {"gbps": 91000.0}, PEAKS)
    assert "matmul throughput" in timing.judge_timing(0.0, 1.0, {"gbps": 1.0, "tflops": 900.0}, PEAKS)
    assert timing.judge_timing(0.0, 0.01, {"gbps": 91000.0}, {}) is None          # no peaks measured


class _Worker:
    def pause(self):
        pass

    def resume(self):
        pass


def _stock_judge(probes, peaks=PEAKS):
    """A judge whose worker answers the stock timing and the probe with synthetic figures."""
    judge = judge_module.Judge.__new__(judge_module.Judge)
    judge.worker, judge.peaks, judge.asked = _Worker(), peaks, []
    replies = iter(probes)

    def ask(command):
        judge.asked.append(command)
        if command.get("protocol"):
            return {"times_ms": [0.002] * 50}
        if command.get("probe"):
            event, host = next(replies) if command["kind"] == "kernel" else (0.005, 0.015)
            time.sleep(N * host / 1e3)            # the judge's clock sees the calls take their time
            return {"event_ms": [event] * N, "host_ms": [host] * N}
        raise AssertionError(command)

    judge.ask = ask
    return judge


@pytest.mark.parametrize("protocol", ["do_bench", "cudagraph"])
def test_stock_protocols_run_the_escape_probe(monkeypatch, protocol):
    monkeypatch.setattr(timing, "time_stock", lambda fn, protocol, rep: [0.1] * 20)
    point = {"size": [4096, 4096], "dtype": "float16", "bytes": 64 << 20, "flops": 0}
    side_stream = [(0.002, 0.060)] * judge_module.PROBE_TRIES
    result = _stock_judge(side_stream)._bench_point_stock(point, protocol, {"torch": None}, [])
    assert not result["passed"] and "work escaped the timed region" in result["invalid"]
    assert result["protocol"] == protocol

    # one host hiccup, then a clean probe: the point stands (and is far below the peak)
    point["bytes"] = 4 << 20
    result = _stock_judge([(0.002, 0.060), (0.002, 0.0125)])._bench_point_stock(point, protocol,
                                                                                {"torch": None}, [])
    assert result["passed"] and "invalid" not in result, result


def test_cudagraph_above_peak_is_a_note_other_protocols_invalid(monkeypatch):
    monkeypatch.setattr(timing, "time_stock", lambda fn, protocol, rep: [0.1] * 20)
    # 64 MiB in 2 us: 33 TB/s, eleven times the copy bandwidth; the probe finds nothing outside
    point = {"size": [4096, 4096], "dtype": "float16", "bytes": 64 << 20, "flops": 0}
    graph = _stock_judge([(0.002, 0.0125)])._bench_point_stock(point, "cudagraph", {"torch": None}, [])
    assert graph["passed"] and "L2" in graph["note"]
    stock = _stock_judge([(0.002, 0.0125)])._bench_point_stock(point, "do_bench", {"torch": None}, [])
    assert not stock["passed"] and "copy bandwidth" in stock["invalid"]
