"""The outcome of one drill run: per-case verdicts, benchmark points, flags, errors.

RunResult is what the CLI prints with --json, what the GUI shows, and what the attempt
log will store. It is plain data (no torch), built by the runner from the child's events.
The `status` names one outcome; the CLI maps it to an exit code: 0 passed, 1 failed (a
case failed or an honesty check blocked the pass), 2 the run could not be judged (the
solution did not load, crashed, hung, hit a CUDA error, or the drill itself is broken).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

SCHEMA_VERSION = 1

PASSED = "passed"
FAILED = "failed"
# Outcomes where the solution could not be judged; each gets its own message.
ERROR_STATUSES = (
    "timeout",         # wall-clock limit reached; the process group was killed
    "crash",           # the child died (signal, os._exit, interpreter abort)
    "cuda_error",      # a sticky CUDA error (e.g. illegal memory access)
    "syntax_error",    # the solution file does not parse
    "import_error",    # the solution file raised while being imported
    "missing_entry",   # the solution defines no function with the drill's entry name
    "too_few_gpus",    # a problem that needs more GPUs than this machine has
    "deadlock",        # a parallelism drill's ranks did not all return in time (each rank's op is named)
    "compile_error",   # a CUDA solution did not compile, link or load (file:line of the first error)
    "wrong_signature", # a CUDA host function the drill cannot call as its signature says
    "cuda_unavailable",  # CUDA asked for where there is no GPU, CUDA build of torch, nvcc or ninja
    "bad_request",     # the run asked for something unknown (a language, say)
    "memory_limit",    # the solution's process grew past the memory limit and was killed
    "stopped",         # DrillRunner.stop() was called
    "bad_drill",       # the drill's own spec.py failed to load
    "harness_error",   # the harness itself failed (a bug, or a broken Python environment)
    "remote_error",    # a remote target failed at a named step (SSH, remote Python, copy, connection)
)

# Honesty flags that turn a run with passing cases into a failed run.
BLOCKING_FLAGS = ("no_triton_kernel", "no_cuda_kernel", "calls_library", "calls_reference", "output_not_from_kernel",
                  "background_threads", "tampering", "invalid_timing")


@dataclass
class CaseResult:
    name: str
    passed: bool
    error: str | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    shape: list[int] = field(default_factory=list)
    dtype: str = ""
    layout: str = "contiguous"
    fill: str = "randn"
    phase: str = "check"          # "check" or "recheck" (fresh seed after timing)
    seed: int | None = None
    trials: int = 0
    ranks: list[dict] = field(default_factory=list)   # a parallelism drill: per rank {rank, passed, error, max_abs_err,
                                                      # seconds, comm_s: its call's time and the part inside torch.distributed}
    note: str | None = None       # what else the case measured (a pipeline schedule's bubble)


@dataclass
class BenchPoint:
    size: list[int]
    dtype: str
    ms: float | None = None
    p20: float | None = None
    p80: float | None = None
    ref_ms: float | None = None
    ref_p20: float | None = None
    ref_p80: float | None = None
    bytes: int = 0
    flops: int = 0
    gbps: float | None = None
    ref_gbps: float | None = None
    tflops: float | None = None
    pct_of_peak: float | None = None
    ref_pct_of_peak: float | None = None
    pct_of_tflops_peak: float | None = None   # of the measured matmul peak (needs a flops model)
    speedup: float | None = None
    passed: bool = True
    error: str | None = None
    protocol: str = "engine"            # how it was timed (DESIGN.md: timing protocols)
    wall_ms: float | None = None        # the judge's own clock: one call, from whole batches
    invalid: str | None = None          # why the timing is not a result (never a best)
    baseline: str = "torch"             # what ref_* timed (a bench names its first baseline)
    baselines: dict[str, dict] = field(default_factory=dict)  # every baseline: ms, p20, p80, gbps
    note: str | None = None             # what a protocol's figure means (e.g. L2-resident replays)
    label: str | None = None            # what the point is where its size does not say (a pack
                                        # problem's benchmark arguments)
    algbw: float | None = None          # a parallelism drill: algorithm bandwidth S/t, GB/s (gbps is busbw)
    ref_algbw: float | None = None      # the library collective's


@dataclass
class Flag:
    name: str
    detail: str
    blocking: bool


@dataclass
class ErrorInfo:
    kind: str
    message: str
    file: str | None = None
    line: int | None = None
    traceback: str | None = None


@dataclass
class Bench:
    requested: bool = False
    available: bool = False
    note: str | None = None
    copy_gbps: float | None = None
    matmul_tflops: float | None = None
    points: list[BenchPoint] = field(default_factory=list)


@dataclass
class Console:
    stdout: str = ""
    stderr: str = ""
    stdout_dropped_bytes: int = 0
    stderr_dropped_bytes: int = 0


@dataclass
class RunResult:
    drill: str
    file: str
    lang: str | None = None
    mode: str | None = None             # "gpu" or "interpreter"; None if the child never said
    device: str | None = None
    versions: dict[str, str | None] = field(default_factory=dict)
    started_at: str = ""                # ISO 8601, UTC
    duration_s: float = 0.0
    status: str = FAILED
    cases: list[CaseResult] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    bench: Bench = field(default_factory=Bench)
    error: ErrorInfo | None = None
    console: Console = field(default_factory=Console)
    builds: list[dict[str, Any]] = field(default_factory=list)   # CUDA builds: seconds, cached, toolkit...
    exit_code: int | None = None        # the child's, negative for a signal
    world_size: int | None = None       # a parallelism drill: how many ranks ran it
    backend: str | None = None          # and on which torch.distributed backend (gloo, nccl)
    schema: int = SCHEMA_VERSION

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def cli_exit_code(self) -> int:
        if self.status == PASSED:
            return 0
        if self.status == FAILED:
            return 1
        return 2

    def flag_names(self) -> list[str]:
        return [f.name for f in self.flags]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["passed"] = self.passed
        data["flags"] = self.flag_names()
        data["flag_details"] = {f.name: {"detail": f.detail, "blocking": f.blocking}
                                for f in self.flags}
        data["bench"] = asdict(self.bench) if self.bench.requested else None
        return data

    def to_json(self, indent: int | None = 2) -> str:
        """Strict JSON: non-finite numbers (an inf error, say) become null."""
        return json.dumps(_finite(self.to_dict()), indent=indent, allow_nan=False, default=str)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value
