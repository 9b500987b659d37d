"""Typed events a drill run produces, in the order they happen.

The child harness writes one JSON object per line to its event pipe (`{"event": name,
...}`); `parse_wire_event` turns each line into one of the dataclasses below. The runner
adds ConsoleOutput (the solution's own prints, read from separate pipes) and ends every
run with exactly one Finished carrying the RunResult. A GUI worker forwards these to the
main thread one by one; each class has a `kind` string for cheap dispatch.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Union

from studio.drills.result import BenchPoint, CaseResult, ErrorInfo, Flag, RunResult


@dataclass(frozen=True)
class RunStarted:
    kind: ClassVar[str] = "started"
    mode: str
    device: str
    versions: dict
    lang: str
    world_size: int | None = None    # a parallelism drill's ranks
    backend: str | None = None       # gloo or nccl


@dataclass(frozen=True)
class BuildFinished:
    """A CUDA solution was built (or loaded from the build cache) in the worker."""
    kind: ClassVar[str] = "build"
    name: str
    seconds: float
    cached: bool
    toolkit: str | None = None
    arch: str | None = None
    flags: list = None
    warnings: list = None


@dataclass(frozen=True)
class CaseStarted:
    kind: ClassVar[str] = "case_started"
    name: str
    index: int
    total: int
    phase: str = "check"


@dataclass(frozen=True)
class CaseResultEvent:
    kind: ClassVar[str] = "case_result"
    result: CaseResult


@dataclass(frozen=True)
class BenchInfo:
    kind: ClassVar[str] = "bench_info"
    available: bool
    note: str | None
    copy_gbps: float | None
    matmul_tflops: float | None = None   # the device's measured dense fp16/bf16 matmul peak


@dataclass(frozen=True)
class BenchPointEvent:
    kind: ClassVar[str] = "bench_point"
    point: BenchPoint


@dataclass(frozen=True)
class FlagRaised:
    kind: ClassVar[str] = "flag"
    flag: Flag


@dataclass(frozen=True)
class ConsoleOutput:
    kind: ClassVar[str] = "console"
    stream: str          # "stdout" or "stderr"
    text: str


@dataclass(frozen=True)
class LogMessage:
    kind: ClassVar[str] = "log"
    level: str
    message: str


@dataclass(frozen=True)
class ErrorEvent:
    kind: ClassVar[str] = "error"
    error: ErrorInfo


@dataclass(frozen=True)
class ChildFinished:
    """The harness reached its end normally (internal: the runner consumes it)."""
    kind: ClassVar[str] = "child_finished"


@dataclass(frozen=True)
class Finished:
    kind: ClassVar[str] = "finished"
    result: RunResult


DrillEvent = Union[RunStarted, BuildFinished, CaseStarted, CaseResultEvent, BenchInfo, BenchPointEvent,
                   FlagRaised, ConsoleOutput, LogMessage, ErrorEvent, Finished]


def _build(cls: type, data: dict[str, Any]) -> Any:
    """Construct a dataclass from a dict, ignoring unknown keys (newer harnesses)."""
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


def parse_wire_event(data: dict[str, Any]) -> Any:
    """One decoded JSON line from the harness -> an event; ValueError if unknown."""
    name = data.get("event")
    if name == "hello":
        return _build(RunStarted, data)
    if name == "case_started":
        return _build(CaseStarted, data)
    if name == "build":
        return _build(BuildFinished, data)
    if name == "case_result":
        return CaseResultEvent(_build(CaseResult, data))
    if name == "bench_info":
        return _build(BenchInfo, data)
    if name == "bench_point":
        return BenchPointEvent(_build(BenchPoint, data))
    if name == "flag":
        return FlagRaised(_build(Flag, data))
    if name == "log":
        return _build(LogMessage, data)
    if name == "error":
        return ErrorEvent(_build(ErrorInfo, data))
    if name == "finished":
        return ChildFinished()
    raise ValueError(f"unknown event {name!r}")
