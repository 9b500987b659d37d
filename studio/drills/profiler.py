"""Profile one benchmark point with Nsight Compute: the solution's kernels and the baseline's.

For each side, ncu runs the point's child (harness/profile_target.py) with
`--profile-from-start off`, so only the one call between cudaProfilerStart/Stop is
profiled, and exports a report; `ncu --import ... --csv --page raw` then prints it and
studio/drills/ncu.py reads it. Each side is a separate ncu run: no side's kernels can be
mistaken for the other's. If ncu refuses the metric list or a section (a different ncu
version), the side is run again with sections only, then with metrics only.

Never imports torch, triton or Qt (the GUI runs it on a worker thread). Unavailable (no
ncu, no GPU, no permission to read the counters) comes back as a Profile with status
"unavailable" and what to do; a failure as status "failed" with ncu's own words.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from studio.drills import ncu as ncu_mod
from studio.drills.ncu import KernelRecord, Unavailable

SIDES = ("solution", "baseline")
SIDE_TIMEOUT_S = 300.0
IMPORT_TIMEOUT_S = 60.0
LOG_TAIL = 4000
_REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ProfileRequest:
    """One point to profile: what it belongs to, where the code and the spec are."""

    subject: str                 # drill id, or FILE:FUNC of a bench
    solution: str                # the solution / kernel file
    entry: str
    size: list[int]
    dtype: str
    spec_module: str | None = None   # a catalogue drill's spec.py
    bench_spec: str | None = None    # or a user's bench spec
    tolerances: dict = field(default_factory=dict)
    signature: str = ""
    python: str | None = None
    seed: int = 0
    timeout_s: float = SIDE_TIMEOUT_S

    @property
    def source(self) -> str:
        return "bench" if self.bench_spec else "drill"


def drill_request(drill_id: str, solution: str | Path, size: list[int], dtype: str,
                  python: str | None = None, kernels_dir: Path | None = None) -> ProfileRequest:
    """A catalogue drill's point; DrillError for an unknown drill, ValueError for a pack problem."""
    from studio.drills.catalog import get_drill
    from studio.drills.runner import resolve_solution

    spec = get_drill(drill_id, kernels_dir)
    if spec.pack_problem:
        raise ValueError("profiling a GPU MODE or LeetGPU problem is not supported yet: profile a catalogue "
                         "drill, or your kernel through a bench spec (studio-bench profile)")
    path = resolve_solution(spec, solution)
    return ProfileRequest(subject=drill_id, solution=str(path), entry=spec.entry, size=list(size), dtype=dtype,
                          spec_module=str(spec.spec_module), signature=spec.signature, python=python,
                          tolerances={k: {"atol": v.atol, "rtol": v.rtol} for k, v in spec.tolerances.items()})


def bench_request(kernel: str | Path, func: str, spec: str | Path, size: list[int], dtype: str,
                  python: str | None = None) -> ProfileRequest:
    kernel = Path(kernel).expanduser().resolve()
    return ProfileRequest(subject=f"{kernel}:{func}", solution=str(kernel), entry=func, size=list(size),
                          dtype=dtype, bench_spec=str(Path(spec).expanduser().resolve()), signature=f"{func}(...)",
                          python=python)


@dataclass
class SideProfile:
    kernels: list[KernelRecord] = field(default_factory=list)
    error: str | None = None
    csv: str = ""
    log: str = ""                # the tail of ncu's (and the program's) output
    attempts: list[str] = field(default_factory=list)   # which ncu variants ran

    def to_dict(self) -> dict:
        return {"kernels": [k.to_dict() for k in self.kernels], "error": self.error, "csv": self.csv,
                "log": self.log, "attempts": list(self.attempts)}

    @classmethod
    def from_dict(cls, data: dict | None) -> "SideProfile":
        data = data or {}
        return cls([KernelRecord.from_dict(k) for k in data.get("kernels") or []], data.get("error"),
                   str(data.get("csv") or ""), str(data.get("log") or ""), list(data.get("attempts") or []))


@dataclass
class Profile:
    subject: str
    size: list[int]
    dtype: str
    status: str = "ok"           # ok | unavailable | failed
    unavailable: Unavailable | None = None
    error: str | None = None
    device: str = ""
    bytes_model: int | None = None
    elem_bytes: int | None = None
    check: dict | None = None
    versions: dict = field(default_factory=dict)
    solution: SideProfile = field(default_factory=SideProfile)
    baseline: SideProfile = field(default_factory=SideProfile)
    created_at: str = ""

    def side(self, name: str) -> SideProfile:
        return self.solution if name == "solution" else self.baseline

    def verdict(self, side: str = "solution") -> ncu_mod.Verdict | None:
        """The verdict of the side's longest kernel; the bytes model applies to the whole side,
        so it is checked against the side's total traffic when the side has one kernel."""
        kernels = self.side(side).kernels
        main = ncu_mod.main_kernel(kernels)
        if main is None:
            return None
        model = self.bytes_model if len(kernels) == 1 else None
        out = ncu_mod.verdict(main, model, self.elem_bytes)
        if len(kernels) > 1 and self.bytes_model:
            total = ncu_mod.side_summary(kernels)
            moved = (total["dram_read_bytes"] or 0.0) + (total["dram_write_bytes"] or 0.0)
            if moved and moved / self.bytes_model >= ncu_mod.EXTRA_TRAFFIC_RATIO:
                out.warnings.insert(0, f"its {len(kernels)} kernels move {moved / self.bytes_model:.2f}x the bytes "
                                       f"model together: data makes more than one trip through DRAM")
        return out

    def to_dict(self) -> dict:
        return {"subject": self.subject, "size": list(self.size), "dtype": self.dtype, "status": self.status,
                "unavailable": None if self.unavailable is None else {
                    "kind": self.unavailable.kind, "reason": self.unavailable.reason, "todo": self.unavailable.todo},
                "error": self.error, "device": self.device, "bytes_model": self.bytes_model,
                "elem_bytes": self.elem_bytes, "check": self.check, "versions": dict(self.versions),
                "solution": self.solution.to_dict(), "baseline": self.baseline.to_dict(),
                "created_at": self.created_at}

    @classmethod
    def from_dict(cls, data: dict) -> "Profile":
        un = data.get("unavailable")
        return cls(subject=str(data.get("subject", "")), size=list(data.get("size") or []),
                   dtype=str(data.get("dtype", "")), status=str(data.get("status", "failed")),
                   unavailable=Unavailable(un["kind"], un["reason"], un["todo"]) if isinstance(un, dict) else None,
                   error=data.get("error"), device=str(data.get("device") or ""),
                   bytes_model=data.get("bytes_model"), elem_bytes=data.get("elem_bytes"), check=data.get("check"),
                   versions=dict(data.get("versions") or {}), solution=SideProfile.from_dict(data.get("solution")),
                   baseline=SideProfile.from_dict(data.get("baseline")), created_at=str(data.get("created_at") or ""))


Runner = Callable[[list[str], float, dict[str, str]], tuple[int, str]]


class Profiler:
    """Runs ncu for both sides of a point; stop() from another thread ends the current run."""

    def __init__(self, ncu: str | None = None, env: dict[str, str] | None = None,
                 runner: Runner | None = None, gpu: bool | None = None) -> None:
        self.env = dict(os.environ if env is None else env)
        self.ncu = ncu
        self.gpu = gpu
        self._runner = runner or self._run
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._stopped = False

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def profile(self, request: ProfileRequest, on_progress: Callable[[str], None] | None = None) -> Profile:
        profile = Profile(request.subject, list(request.size), request.dtype,
                          created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"))
        missing = ncu_mod.unavailable_reason(self.env, self.gpu) if self.ncu is None else None
        if missing is not None:
            profile.status, profile.unavailable = "unavailable", missing
            return profile
        ncu = self.ncu or ncu_mod.find_ncu(self.env)
        workdir = Path(tempfile.mkdtemp(prefix="studio-ncu-"))
        try:
            for side in SIDES:
                if self._stopped:
                    profile.status, profile.error = "failed", "stopped by the user"
                    return profile
                if on_progress:
                    on_progress(side)
                stop = self._profile_side(ncu, request, side, workdir, profile)
                if stop:
                    return profile
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        if not profile.solution.kernels and not profile.baseline.kernels:
            profile.status = "failed"
            profile.error = profile.error or profile.solution.error or profile.baseline.error or \
                "ncu profiled no kernels"
        return profile

    # ----- one side -------------------------------------------------------------------------
    def _profile_side(self, ncu: str, request: ProfileRequest, side: str, workdir: Path, profile: Profile) -> bool:
        """Profile one side into `profile`; True when the whole profile must stop (unavailable)."""
        out = workdir / f"{side}.json"
        req_path = workdir / f"{side}.request.json"
        req_path.write_text(json.dumps({
            "side": side, "out": str(out), "solution": request.solution, "entry": request.entry,
            "signature": request.signature, "size": request.size, "dtype": request.dtype,
            "spec_module": request.spec_module, "bench_spec": request.bench_spec,
            "tolerances": request.tolerances, "seed": request.seed,
            "cuda_cache": str(workdir / "cuda-builds")}), encoding="utf-8")
        target = [request.python or sys.executable, "-m", "studio.drills.harness.profile_target",
                  "--request", str(req_path)]
        report = workdir / f"{side}.ncu-rep"
        record = profile.side(side)
        variants = (("sections+metrics", True, True), ("metrics only", False, True), ("sections only", True, False))
        text = ""
        for label, sections, metrics in variants:
            report.unlink(missing_ok=True)
            cmd = ncu_mod.profile_command(ncu, report, target, sections=sections, metrics=metrics)
            record.attempts.append(label)
            code, text = self._runner(cmd, request.timeout_s, self._child_env())
            record.log = text[-LOG_TAIL:]
            denied = ncu_mod.permission_problem(text)
            if denied is not None:
                profile.status, profile.unavailable = "unavailable", denied
                return True
            said = _read_json(out)
            if said is not None and not said.get("ok"):
                if said.get("kind") == "no_gpu":
                    profile.status = "unavailable"
                    profile.unavailable = Unavailable("no_gpu", str(said.get("error")),
                                                      "Profile on a machine whose drill Python has CUDA torch "
                                                      "(Settings: drill Python)")
                    return True
                record.error = str(said.get("error"))
                if said.get("traceback"):
                    record.log = (record.log + "\n" + str(said["traceback"]))[-LOG_TAIL:]
                return False
            if said is not None:
                self._learn(profile, said)
            if report.is_file():
                break
            if code == -9 and self._stopped:
                record.error = "stopped by the user"
                return True
            errors = ncu_mod.ncu_errors(text)
            if said is not None and not errors:
                record.error = "ncu wrote no report: " + ("no kernel ran between cudaProfilerStart and Stop"
                                                          if "No kernels were profiled" in text else text[-300:])
                return False
            if not any(w in " ".join(errors).lower() for w in ("metric", "section")):
                record.error = "ncu failed: " + ("; ".join(errors) if errors else f"exit status {code}: {text[-300:]}")
                return False
        else:
            errors = ncu_mod.ncu_errors(text)
            record.error = "ncu refused every metric set: " + "; ".join(errors or [text[-300:]])
            return False
        code, csv_text = self._runner(ncu_mod.import_command(ncu, report), IMPORT_TIMEOUT_S, self._child_env())
        record.csv = csv_text
        try:
            record.kernels = ncu_mod.parse_csv(csv_text)
        except ncu_mod.CsvError as exc:
            record.error = f"reading ncu's report: {exc}"
        if not record.kernels and record.error is None:
            record.error = "ncu's report lists no kernels"
        return False

    @staticmethod
    def _learn(profile: Profile, said: dict) -> None:
        profile.device = str(said.get("device") or profile.device)
        profile.bytes_model = said.get("bytes_model", profile.bytes_model)
        profile.elem_bytes = said.get("elem_bytes", profile.elem_bytes)
        profile.versions = dict(said.get("versions") or profile.versions)
        if said.get("side") == "solution":
            profile.check = said.get("check")

    def _child_env(self) -> dict[str, str]:
        env = dict(self.env)
        old = env.get("PYTHONPATH")
        env["PYTHONPATH"] = str(_REPO_ROOT) + (os.pathsep + old if old else "")
        env["PYTHONUNBUFFERED"] = "1"
        env.pop("TRITON_INTERPRET", None)
        return env

    def _run(self, cmd: list[str], timeout: float, env: dict[str, str]) -> tuple[int, str]:
        """(exit status, stdout and stderr together); a run past `timeout` is killed (-9)."""
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    env=env, start_new_session=True)
        except OSError as exc:
            return 127, f"==ERROR== cannot start {cmd[0]}: {exc}"
        with self._lock:
            self._proc = proc
        try:
            output, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            output, _ = proc.communicate()
            text = output.decode("utf-8", "replace")
            return -9, text + f"\n==ERROR== the run took longer than {timeout:g} s and was killed"
        finally:
            with self._lock:
                self._proc = None
        return proc.returncode, output.decode("utf-8", "replace")


def _read_json(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# ----- text -------------------------------------------------------------------------------------
def _fmt(info: ncu_mod.MetricInfo, value: float | None) -> str:
    if value is None:
        return "n/a"
    if info.unit == "pct":
        return f"{value:.1f}%"
    if info.unit == "ns":
        return f"{value / 1e3:.2f} µs"
    if info.unit == "bytes":
        return ncu_mod._bytes(value)
    if info.unit == "ratio":
        return f"{value:.2f}"
    return f"{value:,.0f}"


def format_value(key: str, value: float | None) -> str:
    info = ncu_mod.SECTORS_PER_REQUEST if key == "sectors_per_request" else ncu_mod.METRIC_BY_KEY[key]
    return _fmt(info, value)


TABLE_KEYS = ("duration_ns", "dram_read_bytes", "dram_write_bytes", "dram_pct", "memory_pct", "sm_pct",
              "l2_hit_pct", "l1_hit_pct", "occupancy_achieved_pct", "occupancy_theoretical_pct",
              "registers_per_thread", "block_size", "grid_size", "sectors_per_request", "sector_use_pct")


def format_profile(profile: Profile) -> str:
    """The profile as plain text (CLI, GPU scripts)."""
    lines = [f"profile of {profile.subject} at {'x'.join(map(str, profile.size))} {profile.dtype}"
             + (f" on {profile.device}" if profile.device else "")]
    if profile.status == "unavailable" and profile.unavailable:
        lines.append(f"unavailable: {profile.unavailable.message()}")
        return "\n".join(lines) + "\n"
    if profile.error:
        lines.append(f"error: {profile.error}")
    if profile.bytes_model:
        lines.append(f"bytes model: {ncu_mod._bytes(profile.bytes_model)}")
    if profile.check and profile.check.get("error"):
        lines.append(f"note: {profile.check['error']}")
    for side in SIDES:
        record = profile.side(side)
        lines.append(f"\n[{side}] {len(record.kernels)} kernel(s)" + (f"  ERROR {record.error}" if record.error else ""))
        v = profile.verdict(side)
        if v is not None:
            lines.append(f"  verdict: {v.headline}")
            for reason in v.reasons:
                lines.append(f"    - {reason}")
            for warning in v.warnings:
                lines.append(f"    ! {warning}")
        for k in record.kernels:
            limiter = ncu_mod.occupancy_limiter(k)
            lines.append(f"  kernel {k.name[:90]}  grid {k.grid} block {k.block}"
                         + (f"  occupancy limited by {ncu_mod.LIMITER_WORDS[limiter][0]}" if limiter else ""))
            for key in TABLE_KEYS:
                value = k.get(key)
                if value is not None:
                    info = ncu_mod.SECTORS_PER_REQUEST if key == "sectors_per_request" else ncu_mod.METRIC_BY_KEY[key]
                    lines.append(f"    {info.label_en:<38} {format_value(key, value)}")
            stalls = k.stalls()[:3]
            if stalls:
                lines.append("    top stalls: " + ", ".join(f"{ncu_mod.STALLS.get(r, (r,))[0]} {s:.0f}%"
                                                         for r, s in stalls))
    return "\n".join(lines) + "\n"
