"""Nsight Compute profiles: parsing ncu's CSV, the verdict, unavailability, the run itself
(with ncu replaced by a fake that writes the recorded outputs), storage and comparison."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from studio.drills import ncu
from studio.drills.ncu import KernelRecord
from studio.drills.profiler import Profile, ProfileRequest, Profiler, format_profile

FIXTURES = Path(__file__).parent / "ncu_fixtures"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


# ----- parsing ------------------------------------------------------------------------------
def test_raw_page_triton_kernel():
    [k] = ncu.parse_csv(fixture("raw_solution_triton.csv"))
    assert k.name == "softmax_kernel"
    assert k.grid == "(4096, 1, 1)" and k.block == "(128, 1, 1)"
    assert k.get("dram_read_bytes") == 16_781_312
    assert k.get("duration_ns") == 12_416
    assert k.get("dram_pct") == pytest.approx(88.41)
    assert k.get("occupancy_theoretical_pct") == 100
    assert k.get("sectors_per_request") == pytest.approx(16.0)
    assert k.units["gpu__time_duration.sum"] == "nsecond"


def test_raw_page_torch_kernel_name_with_commas_and_brackets():
    [k] = ncu.parse_csv(fixture("raw_baseline_torch.csv"))
    assert k.name.startswith("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float")
    assert k.name.endswith("(T4 *, const T2 *, int)")
    assert k.get("limit_registers") == 2


def test_missing_metrics_are_absent_and_prof_lines_skipped():
    strided, fill = ncu.parse_csv(fixture("raw_missing_metrics.csv"))
    assert strided.name == "softmax_strided_kernel" and strided.id == 0
    assert fill.id == 1 and "FillFunctor" in fill.name
    assert fill.get("l2_hit_pct") is None             # n/a in the CSV
    assert fill.get("sectors_per_request") is None
    assert fill.get("occupancy_achieved_pct") is None
    assert fill.stalls() == []
    assert fill.get("duration_ns") == 1952


def test_details_page_with_automatic_units():
    add, vec = ncu.parse_csv(fixture("details_auto_units.csv"))
    assert add.name == "triton_poi_fused_add_0"
    assert add.get("dram_read_bytes") == pytest.approx(16.78e6)
    assert add.get("duration_ns") == pytest.approx(9700.0)
    assert vec.get("duration_ns") == pytest.approx(11200.0)    # msecond -> ns
    assert vec.get("sm_pct") is None                           # n/a


def test_permission_text_has_no_table_and_is_recognised():
    text = fixture("permission_denied.txt")
    with pytest.raises(ncu.CsvError, match="ERR_NVGPUCTRPERM"):
        ncu.parse_csv(text)
    problem = ncu.permission_problem(text)
    assert problem is not None and problem.kind == "no_permission"
    assert "NVreg_RestrictProfilingToAdminUsers=0" in problem.todo
    assert ncu.permission_problem(fixture("raw_solution_triton.csv")) is None


def test_numbers():
    assert ncu.number("1,234.5") == 1234.5
    assert ncu.number("n/a") is None and ncu.number("") is None and ncu.number("inf") is None
    assert ncu.to_base(2.0, "Kbyte") == 2000.0 and ncu.to_base(3.0, "usecond") == 3000.0


def test_stalls_shares_exclude_selected():
    [k] = ncu.parse_csv(fixture("raw_solution_triton.csv"))
    stalls = k.stalls()
    assert [r for r, _ in stalls] == ["long_scoreboard", "wait", "barrier"]
    assert sum(s for _, s in stalls) == pytest.approx(100.0)


def test_record_round_trip():
    [k] = ncu.parse_csv(fixture("raw_baseline_torch.csv"))
    again = KernelRecord.from_dict(json.loads(json.dumps(k.to_dict())))
    assert again.get("l2_hit_pct") == k.get("l2_hit_pct") and again.name == k.name


# ----- verdicts -------------------------------------------------------------------------------
def rec(**metrics) -> KernelRecord:
    names = {m.key: m.names[0] for m in ncu.METRICS}
    return KernelRecord(0, "k", metrics={names[k]: float(v) for k, v in metrics.items()})


def test_memory_bound():
    v = ncu.verdict(rec(dram_pct=88, memory_pct=88, sm_pct=18))
    assert v.bound == "memory-bound" and "DRAM" in v.headline


def test_on_chip_memory_bound():
    v = ncu.verdict(rec(dram_pct=30, memory_pct=92, sm_pct=20))
    assert v.bound == "memory-bound" and "L1/L2" in v.headline


def test_compute_bound():
    v = ncu.verdict(rec(dram_pct=20, memory_pct=35, sm_pct=81))
    assert v.bound == "compute-bound"


def test_latency_bound_names_the_limiter_and_the_stall():
    v = ncu.verdict(rec(dram_pct=25, memory_pct=30, sm_pct=15, occupancy_theoretical_pct=25,
                        occupancy_achieved_pct=12, limit_registers=2, limit_shared_mem=8, limit_warps=16,
                        duration_ns=50_000),)
    assert v.bound == "latency-bound" and v.limiter == "registers"
    assert any("capped by registers per thread" in r for r in v.reasons)
    assert any("well below the theoretical" in r for r in v.reasons)


def test_unknown_without_throughput():
    assert ncu.verdict(rec(duration_ns=1000)).bound == "unknown"


def test_extra_traffic_against_the_model():
    k = rec(dram_pct=40, sm_pct=10, dram_read_bytes=134_217_728, dram_write_bytes=16_777_216)
    v = ncu.verdict(k, model_bytes=33_554_432)
    assert any("4.50x the bytes model" in w for w in v.warnings)
    assert not ncu.verdict(k, model_bytes=150_994_944).warnings


def test_uncoalesced_warnings_from_the_strided_fixture():
    strided, _ = ncu.parse_csv(fixture("raw_missing_metrics.csv"))
    v = ncu.verdict(strided, model_bytes=33_554_432, elem_bytes=4)
    text = " ".join(v.warnings)
    assert "12% of each 32-byte sector" in text
    assert "32.0 sectors per load request" in text
    assert "the bytes model" in text
    [good] = ncu.parse_csv(fixture("raw_solution_triton.csv"))
    assert ncu.verdict(good, model_bytes=33_554_432, elem_bytes=4).warnings == []


def test_main_kernel_and_compare():
    before = {"solution": {"kernels": [k.to_dict() for k in ncu.parse_csv(fixture("raw_missing_metrics.csv"))]}}
    after = {"solution": {"kernels": [k.to_dict() for k in ncu.parse_csv(fixture("raw_solution_triton.csv"))]}}
    rows = {r["key"]: r for r in ncu.compare(before, after)}
    assert rows["dram_read_bytes"]["ratio"] == pytest.approx(16_781_312 / 134_217_728)
    assert rows["duration_ns"]["before"] == 118_560


def test_every_metric_is_explained_in_both_languages_and_linked_to_the_roadmap():
    from studio.core.roadmap import load_roadmap

    from studio import paths

    nodes = load_roadmap(paths.content_dir() / "roadmap.yaml").nodes
    for info in ncu.METRICS + (ncu.SECTORS_PER_REQUEST,):
        assert info.label_en and info.label_zh and info.explain_en and info.explain_zh, info.key
        assert info.node in nodes, (info.key, info.node)
    assert ncu.STALL_NODE in nodes


# ----- availability ---------------------------------------------------------------------------
def test_no_ncu(tmp_path):
    reason = ncu.unavailable_reason({"PATH": str(tmp_path)}, gpu=True)
    if ncu.find_ncu({"PATH": str(tmp_path)}) is not None:
        pytest.skip("ncu is installed in a standard place on this machine")
    assert reason is not None and reason.kind == "no_ncu" and "STUDIO_NCU" in reason.todo


def test_studio_ncu_not_a_file(tmp_path):
    reason = ncu.unavailable_reason({"PATH": "", "STUDIO_NCU": str(tmp_path / "nope")}, gpu=True)
    assert reason.kind == "no_ncu" and "STUDIO_NCU" in reason.reason


def fake_ncu(tmp_path) -> str:
    path = tmp_path / "ncu"
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return str(path)


def test_no_gpu(tmp_path):
    env = {"PATH": "", "STUDIO_NCU": fake_ncu(tmp_path)}
    assert ncu.unavailable_reason(env, gpu=False).kind == "no_gpu"
    assert ncu.unavailable_reason(env, gpu=True) is None


def test_profiler_unavailable_runs_nothing(tmp_path):
    calls = []
    profile = Profiler(env={"PATH": str(tmp_path)}, gpu=False,
                       runner=lambda *a: calls.append(a) or (0, "")).profile(_request(tmp_path))
    assert profile.status == "unavailable" and calls == []
    assert "unavailable:" in format_profile(profile)


# ----- the run, with a fake ncu ---------------------------------------------------------------
def _request(tmp_path) -> ProfileRequest:
    return ProfileRequest(subject="softmax", solution=str(tmp_path / "s.py"), entry="softmax", size=[4096, 1024],
                          dtype="float32", spec_module=str(tmp_path / "spec.py"))


class FakeNcu:
    """Plays ncu: for a profile command, writes the child's JSON and the report file; for an
    import, prints a recorded CSV. `refuse_metrics` makes the first variant fail as ncu does."""

    def __init__(self, csvs: dict[str, str], refuse_metrics: bool = False, permission: bool = False):
        self.csvs, self.refuse, self.permission = csvs, refuse_metrics, permission
        self.commands: list[list[str]] = []

    def __call__(self, cmd, timeout, env):
        self.commands.append(cmd)
        if "--import" in cmd:
            side = Path(cmd[cmd.index("--import") + 1]).stem
            return 0, self.csvs[side]
        assert "--clock-control" in cmd and cmd[cmd.index("--clock-control") + 1] == "none"
        if self.permission:
            return 1, fixture("permission_denied.txt")
        if self.refuse and "--metrics" in cmd and "--section" in cmd:
            return 1, '==ERROR== Failed to find metric regex:^smsp__sass_average_data_bytes_per_sector\n'
        request = json.loads(Path(cmd[cmd.index("--request") + 1]).read_text())
        Path(request["out"]).write_text(json.dumps({
            "ok": True, "side": request["side"], "device": "NVIDIA H100 80GB HBM3", "bytes_model": 33_554_432,
            "elem_bytes": 4, "check": {"passed": True, "max_abs_err": 1e-7, "error": None}, "versions": {}}))
        Path(cmd[cmd.index("--export") + 1]).write_bytes(b"report")
        return 0, "==PROF== Disconnected from process 1\n"


def test_profile_both_sides(tmp_path):
    fake = FakeNcu({"solution": fixture("raw_solution_triton.csv"), "baseline": fixture("raw_baseline_torch.csv")})
    profile = Profiler(ncu="/x/ncu", runner=fake).profile(_request(tmp_path))
    assert profile.status == "ok", profile.to_dict()
    assert profile.device == "NVIDIA H100 80GB HBM3" and profile.bytes_model == 33_554_432
    assert [k.name for k in profile.solution.kernels] == ["softmax_kernel"]
    assert "cunn_SoftMaxForward" in profile.baseline.kernels[0].name
    assert profile.verdict("solution").bound == "memory-bound"
    profile_cmds = [c for c in fake.commands if "--export" in c]
    assert all("--profile-from-start" in c and c[c.index("--profile-from-start") + 1] == "off" for c in profile_cmds)
    again = Profile.from_dict(json.loads(json.dumps(profile.to_dict())))
    assert again.verdict("baseline").bound == profile.verdict("baseline").bound
    text = format_profile(profile)
    assert "[solution] 1 kernel(s)" in text and "verdict: memory-bound" in text


def test_profile_falls_back_when_ncu_refuses_a_metric(tmp_path):
    fake = FakeNcu({"solution": fixture("raw_solution_triton.csv"), "baseline": fixture("raw_baseline_torch.csv")},
                   refuse_metrics=True)
    profile = Profiler(ncu="/x/ncu", runner=fake).profile(_request(tmp_path))
    assert profile.status == "ok"
    assert profile.solution.attempts == ["sections+metrics", "metrics only"]


def test_profile_permission_denied_is_unavailable(tmp_path):
    fake = FakeNcu({}, permission=True)
    profile = Profiler(ncu="/x/ncu", runner=fake).profile(_request(tmp_path))
    assert profile.status == "unavailable" and profile.unavailable.kind == "no_permission"
    assert len(fake.commands) == 1


def test_profile_child_error_is_reported(tmp_path):
    def runner(cmd, timeout, env):
        request = json.loads(Path(cmd[cmd.index("--request") + 1]).read_text())
        Path(request["out"]).write_text(json.dumps({"ok": False, "kind": "missing_entry",
                                                    "error": "s.py defines no function `softmax`"}))
        return 3, "==ERROR== The application returned an error code (3).\n"

    profile = Profiler(ncu="/x/ncu", runner=runner).profile(_request(tmp_path))
    assert profile.status == "failed"
    assert "defines no function" in profile.error


def test_profile_real_process_fails_cleanly_when_ncu_is_not_ncu(tmp_path):
    """A real subprocess: an 'ncu' that prints an error and exits; nothing raises."""
    script = tmp_path / "ncu"
    script.write_text("#!/bin/sh\necho '==ERROR== unrecognised option' \nexit 1\n")
    script.chmod(0o755)
    profile = Profiler(ncu=str(script), env=dict(os.environ)).profile(_request(tmp_path))
    assert profile.status == "failed" and "unrecognised option" in profile.error


# ----- the child itself (no GPU here: its CPU path, then its refusal) -------------------------
def _target(tmp_path, side: str, solution: str, device: str | None) -> dict:
    import subprocess
    import sys

    from studio.drills.catalog import get_drill

    spec = get_drill("softmax")
    out = tmp_path / f"{side}.json"
    request = {"side": side, "out": str(out), "solution": solution, "entry": spec.entry, "signature": spec.signature,
               "size": [8, 40], "dtype": "float32", "spec_module": str(spec.spec_module), "bench_spec": None,
               "tolerances": {k: {"atol": v.atol, "rtol": v.rtol} for k, v in spec.tolerances.items()},
               "seed": 0, "cuda_cache": str(tmp_path / "cuda")}
    if device:
        request["device"] = device
    path = tmp_path / f"{side}.request.json"
    path.write_text(json.dumps(request))
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    subprocess.run([sys.executable, "-m", "studio.drills.harness.profile_target", "--request", str(path)],
                   env=env, timeout=240, check=False, capture_output=True)
    return json.loads(out.read_text())


def test_target_runs_the_softmax_solution_and_checks_it(tmp_path):
    from studio.drills.catalog import get_drill

    said = _target(tmp_path, "solution", str(get_drill("softmax").solution), "cpu")
    assert said["ok"], said
    assert said["bytes_model"] == 2 * 8 * 40 * 4 and said["elem_bytes"] == 4
    assert said["check"]["passed"] is True


def test_target_reports_a_wrong_kernel(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\n\ndef softmax(x):\n    return torch.zeros_like(x)\n")
    said = _target(tmp_path, "solution", str(bad), "cpu")
    assert said["ok"] and said["check"]["passed"] is False


def test_target_refuses_without_a_gpu(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    said = _target(tmp_path, "baseline", "unused.py", None)
    assert not said["ok"] and said["kind"] == "no_gpu"


# ----- storage ---------------------------------------------------------------------------------
def test_profiles_are_stored_and_compared(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDIO_HOME", str(tmp_path / "home"))
    from studio.core.collection import Collection
    from studio.core.kernel_profiles import get_profile, list_profiles, previous, profile_data, record_profile

    fake = FakeNcu({"solution": fixture("raw_missing_metrics.csv"), "baseline": fixture("raw_baseline_torch.csv")})
    slow = Profiler(ncu="/x/ncu", runner=fake).profile(_request(tmp_path))
    fake.csvs["solution"] = fixture("raw_solution_triton.csv")
    fast = Profiler(ncu="/x/ncu", runner=fake).profile(_request(tmp_path))
    col = Collection.open()
    try:
        first = record_profile(col, slow.to_dict(), "drill", code="slow", attempt_id=7)
        second = record_profile(col, fast.to_dict(), "drill", code="fast", attempt_id=8)
        rows = list_profiles(col, "softmax", [4096, 1024], "float32")
        assert [r.id for r in rows] == [second, first]
        row = get_profile(col, second)
        before = previous(col, row)
        assert before.id == first and before.attempt_id == 7
        change = {r["key"]: r for r in ncu.compare(profile_data(before), profile_data(row))}
        assert change["duration_ns"]["ratio"] == pytest.approx(12_416 / 118_560)
        assert Profile.from_dict(profile_data(row)).verdict().bound == "memory-bound"
    finally:
        col.close()


# ----- the command lines -------------------------------------------------------------------------
def test_cli_profile_unavailable_says_what_to_do(tmp_path, monkeypatch, capsys):
    from studio.drills import cli

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("STUDIO_NCU", str(tmp_path / "missing-ncu"))
    code = cli.main(["profile", "softmax", "@solution", "--size", "4096x1024", "--dtype", "float32", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 3 and doc["status"] == "unavailable" and doc["unavailable"]["kind"] == "no_ncu"


def test_bench_cli_profile_with_a_fake_ncu(tmp_path, monkeypatch, capsys):
    from studio.drills import bench_cli, profiler

    kernel = tmp_path / "k.py"
    kernel.write_text("def softmax(x):\n    return x\n")
    (tmp_path / "k.bench.py").write_text("sizes=[(8,8)]\n")
    fake = FakeNcu({"solution": fixture("raw_solution_triton.csv"), "baseline": fixture("raw_baseline_torch.csv")})
    real_init = profiler.Profiler.__init__
    monkeypatch.setattr(profiler.Profiler, "__init__",
                        lambda self, **kw: real_init(self, ncu="/x/ncu", runner=fake))
    code = bench_cli.main(["profile", f"{kernel}:softmax", "--size", "4096x1024", "--dtype", "float32"])
    out = capsys.readouterr().out
    assert code == 0
    assert "verdict: memory-bound" in out and "[baseline] 1 kernel(s)" in out
    profiled = [c for c in fake.commands if "--export" in c]
    assert len(profiled) == 2 and all("studio.drills.harness.profile_target" in c for c in profiled)


def test_raw_page_with_units_in_the_header():
    text = ('"ID","Kernel Name","gpu__time_duration.sum [usecond]","dram__bytes_read.sum [Mbyte]"\n'
            '"0","softmax_kernel","12.5","16.78"\n')
    [k] = ncu.parse_csv(text)
    assert k.get("duration_ns") == pytest.approx(12_500) and k.get("dram_read_bytes") == pytest.approx(16.78e6)


def test_target_runs_the_strided_variant_correctly(tmp_path):
    said = _target(tmp_path, "solution", str(Path(__file__).resolve().parents[2] / "bench/ncu_softmax_strided.py"),
                   "cpu")
    assert said["ok"] and said["check"]["passed"] is True, said
