"""studio-bench: check and time the user's own kernel across a sweep, without the GUI.

    studio-bench run FILE:FUNC [--spec SPEC] [--protocol engine|do_bench|cudagraph] [--interpret] [--json]
                               [--timeout S] [--python PATH] [--compare RUN_ID] [--no-record]
                               [--compile-baseline] [--point-timeout S] [--remote HOST]
    studio-bench history FILE[:FUNC] [--json]
    studio-bench profile FILE:FUNC --size 4096x1024 --dtype float32 [--spec SPEC] [--json] [--record]

FILE:FUNC names the kernel (a Python file and the function in it); SPEC is its bench spec,
`<FILE stem>.bench.py` beside it unless given (the contract: studio/drills/harness/bench_spec.py
and the README's "Kernel bench"). Each sweep point is checked against the spec's reference
and, on a GPU, timed beside every baseline the spec names. The run goes through the drill
engine: the kernel runs in a worker process apart from the judge, with its time and memory
limits. Exit status: 0 every point correct, 1 a point wrong, 2 the run could not be judged
(bad spec, crash, hang; a point that hangs or crashes the kernel's process fails alone, with
its line, and a fresh process checks the rest of the sweep first). With --json, stdout is one
JSON document with the run's id and every point, each with the same fields (summary()). Every run is kept in the app's history (with the kernel's git commit, if any);
--compare RUN_ID adds the speedup of each point over that run and whether it is beyond the
noise (the two runs' p20-p80 ranges do not overlap).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence, TextIO

from studio.drills.events import BenchPointEvent, CaseResultEvent, ConsoleOutput, ErrorEvent, LogMessage
from studio.drills.result import RunResult, _finite
from studio.drills.runner import DrillRunner, RunRequest

PROTOCOLS = ("engine", "do_bench", "cudagraph")


def default_spec(kernel: Path) -> Path:
    return kernel.with_name(kernel.stem + ".bench.py")


def parse_target(target: str) -> tuple[Path, str]:
    """'path/to/file.py:func' -> (path, func); ValueError with a plain message otherwise."""
    file, sep, func = target.rpartition(":")
    if not sep or not file or not func.isidentifier():
        raise ValueError(f"{target!r}: name the kernel as FILE:FUNC, e.g. my_softmax.py:softmax")
    return Path(file).expanduser().resolve(), func


def bench_request(kernel: Path, func: str, spec: Path, interpret: bool = False,
                  timeout_s: float | None = None, protocol: str = "engine",
                  compile_baseline: bool = False, point_timeout_s: float | None = None) -> RunRequest:
    """The drill engine's request for a bench of `func` in `kernel` under `spec`."""
    problem = {"id": f"bench:{kernel.name}", "bench_spec": str(spec), "entry": func,
               "signature": f"{func}(...)", "inputs": [], "metric": "gbps", "tolerances": {},
               "trials": 1, "cases": [], "gpu_cases": [], "bench": {"shapes": [], "dtypes": []},
               "reference_ops": {}, "compile_baseline": compile_baseline, "point_timeout_s": point_timeout_s}
    # lang "torch" for Python: a bench measures the user's code as it is; the drills' rule that
    # a Triton solution must launch a Triton kernel of its own does not apply. A .cu file (or
    # Python calling load_inline) is CUDA: it has to be built first.
    from studio.drills import languages

    lang = "cuda" if languages.detect(kernel) == "cuda" else "torch"
    return RunRequest(drill=f"bench:{kernel.name}", solution=kernel, bench=True, interpret=interpret,
                      timeout_s=timeout_s, lang=lang, problem=problem, protocol=protocol)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="studio-bench", description="Check and time your own kernel")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="check and time FILE:FUNC across its bench spec's sweep")
    run.add_argument("target", help="the kernel as FILE:FUNC")
    run.add_argument("--spec", help="the bench spec (default: <FILE stem>.bench.py beside FILE)")
    run.add_argument("--protocol", choices=PROTOCOLS, default="engine",
                     help="timing protocol: engine (read flush, interleaved kernel/baseline rounds, checksums), "
                          "do_bench (triton.testing.do_bench as shipped), cudagraph (do_bench_cudagraph)")
    run.add_argument("--interpret", action="store_true", help="Triton's interpreter on the CPU: correctness only")
    run.add_argument("--json", action="store_true", help="print one JSON document")
    run.add_argument("--timeout", type=float, help="seconds for the whole run (default 600)")
    run.add_argument("--point-timeout", type=float, metavar="S",
                     help="seconds for one point's check (default 120): a kernel that hangs at one size "
                          "fails that point and the sweep goes on in a fresh process")
    run.add_argument("--python", help="the interpreter to run the kernel with (e.g. a CUDA env; with "
                                      "--remote, the one there, default python3)")
    run.add_argument("--remote", metavar="HOST",
                     help="run on HOST over SSH (an alias from ~/.ssh/config or user@host[:port]); the kernel "
                          "file and its spec are sent with the run")
    run.add_argument("--compare", type=int, metavar="RUN_ID", help="compare each point with an earlier run")
    run.add_argument("--no-record", action="store_true", help="do not keep this run in the history")
    run.add_argument("--compile-baseline", action="store_true",
                     help="also time torch.compile of the spec's reference as a baseline")
    from studio.drills.profile_cli import add_bench_parser

    add_bench_parser(sub)
    hist = sub.add_parser("history", help="earlier runs of a kernel file")
    hist.add_argument("target", help="FILE or FILE:FUNC")
    hist.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "history":
        return _history(args, sys.stdout)
    if args.command == "profile":
        from studio.drills.profile_cli import run_bench

        return run_bench(args, sys.stdout)
    return _run(args, sys.stdout)


def _run(args, out: TextIO) -> int:
    try:
        kernel, func = parse_target(args.target)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not kernel.is_file():
        print(f"error: no such kernel file: {kernel}", file=sys.stderr)
        return 2
    spec = Path(args.spec).expanduser().resolve() if args.spec else default_spec(kernel)
    if not spec.is_file():
        print(f"error: no bench spec at {spec}: write one (see the README, \"Kernel bench\") "
              "or pass --spec", file=sys.stderr)
        return 2
    col = None
    if args.compare is not None or not args.no_record:
        col = _open_history(quiet_if_missing=args.compare is None)
        if col is None and args.compare is not None:
            return 2
        if col is None:
            args.no_record = True
    try:
        earlier = None
        if args.compare is not None:
            from studio.core.bench_runs import get_run

            earlier = get_run(col, args.compare)
            if earlier is None:
                print(f"error: no bench run #{args.compare} (see `studio-bench history {kernel}`)", file=sys.stderr)
                return 2
        request = bench_request(kernel, func, spec, args.interpret, args.timeout, args.protocol,
                                args.compile_baseline, args.point_timeout)
        from studio.drills.targets import remote_target

        target = remote_target(args.remote, args.python)
        runner = DrillRunner(python=None if target else args.python, target=target)
        printer = None if args.json else _Printer(out)
        if printer is not None and target is not None:
            out.write(f"target: {target.label} ({target.python})\n")
        result = runner.run(request, printer)
        doc = summary(result, spec, args.protocol)
        if not args.no_record:
            from studio.core.bench_runs import record_run

            doc["run_id"] = record_run(col, doc, kernel, func, spec)
        if earlier is not None:
            doc["compare"] = _compare(earlier, doc)
    finally:
        if col is not None:
            col.close()
    if args.json:
        out.write(json.dumps(doc, indent=1, allow_nan=False, default=str) + "\n")
    else:
        _print_end(result, out)
        if doc.get("run_id"):
            out.write(f"run #{doc['run_id']} kept in the history (studio-bench history {kernel})\n")
        for c in doc.get("compare", {}).get("points", []):
            size = "x".join(map(str, c["size"]))
            out.write(f"vs #{args.compare} {size:>14} {c['dtype']:<9} {c['speedup']:.2f}x  {c['verdict']}\n")
    return result.cli_exit_code


def _open_history(quiet_if_missing: bool = False):
    """The app's collection for the run history; None (and why, on stderr) when it cannot be had.

    A GPU box may have torch and Triton but not the app's database layer: the bench still
    runs there, without history, and says so.
    """
    try:
        from studio.core.collection import Collection
        from studio.core.db import DatabaseProblem
    except ImportError as exc:
        what = "note: this run is not kept in the history" if quiet_if_missing else "error: no history here"
        print(f"{what} (the app's database layer is not installed in this environment: {exc})",
              file=sys.stderr)
        return None
    try:
        return Collection.open()
    except DatabaseProblem as exc:
        print(f"error: the history database cannot be opened: {exc.summary()} ({exc.detail}); "
              "run with --no-record to bench without it", file=sys.stderr)
        return None


def _compare(earlier, doc: dict) -> dict:
    from dataclasses import asdict

    from studio.core.bench_runs import compare_points, run_points

    changes = compare_points(run_points(earlier), doc["points"])
    return {"run_id": earlier.id, "points": [{**asdict(c), "verdict": c.verdict} for c in changes]}


def _history(args, out: TextIO) -> int:
    file, sep, func = args.target.rpartition(":")
    kernel, func = (Path(file), func) if sep and func.isidentifier() else (Path(args.target), None)
    col = _open_history()
    if col is None:
        return 2
    from studio.core.bench_runs import describe_run, list_runs, run_points

    try:
        runs = list_runs(col, kernel.expanduser(), func)
    finally:
        col.close()
    if args.json:
        out.write(json.dumps([{"id": r.id, "started_at": r.started_at.isoformat(), "func": r.func,
                               "status": r.status, "device": r.device, "protocol": r.protocol,
                               "git_commit": r.git_commit, "git_dirty": r.git_dirty,
                               "content_hash": r.content_hash, "points": run_points(r)} for r in runs],
                             indent=1, default=str) + "\n")
        return 0
    if not runs:
        out.write(f"no bench runs of {kernel.expanduser().resolve()} yet\n")
    for r in runs:
        out.write(describe_run(r) + "\n")
    return 0


def _with_us(entry: dict) -> dict:
    """median_us, p20_us and p80_us beside the engine's milliseconds (ms, p20, p80)."""
    for ms_key, us_key in (("ms", "median_us"), ("p20", "p20_us"), ("p80", "p80_us")):
        value = entry.get(ms_key)
        entry[us_key] = value * 1e3 if isinstance(value, (int, float)) else None
    return entry


_POINT_KEYS = ("ms", "p20", "p80", "gbps", "tflops", "pct_of_peak", "pct_of_tflops_peak", "bytes", "flops",
               "speedup", "baseline", "baselines", "protocol", "invalid", "note")


def summary(result: RunResult, spec: Path, protocol: str) -> dict:
    """The JSON document of a bench run: the run, then one entry per sweep point.

    Read straight from the result's fields (a deep copy of a 100-point result through
    asdict and a JSON round trip took ~100 ms, and the Bench pane builds this per run);
    non-finite numbers become None, as in RunResult.to_json.
    """
    timed = {(tuple(p.size), p.dtype): p for p in result.bench.points} if result.bench.requested else {}
    points = []
    for case in result.cases:
        if case.phase != "check":
            continue
        point = {"size": list(case.shape), "dtype": case.dtype, "passed": case.passed, "error": case.error,
                 "max_abs_err": case.max_abs_err, "max_rel_err": case.max_rel_err}
        point.update(dict.fromkeys(_POINT_KEYS))   # null where not timed (no GPU, a failed point)
        point["baselines"], point["timing_error"] = {}, None
        t = timed.get((tuple(case.shape), case.dtype))
        if t is not None:
            point.update({k: getattr(t, k) for k in _POINT_KEYS})
            point["baselines"] = {name: _with_us(dict(entry)) for name, entry in (t.baselines or {}).items()}
            if t.error and point["passed"]:
                point["timing_error"] = t.error
        points.append(_with_us(point))
    bench = result.bench if result.bench.requested else None
    error = None if result.error is None else {"kind": result.error.kind, "message": result.error.message,
                                               "file": result.error.file, "line": result.error.line,
                                               "traceback": result.error.traceback}
    return _finite({"kernel": result.file, "spec": str(spec), "status": result.status, "mode": result.mode,
                    "device": result.device, "versions": dict(result.versions), "protocol": protocol,
                    "started_at": result.started_at, "error": error,
                    "timing_note": bench.note if bench else None,
                    "peaks": {"copy_gbps": bench.copy_gbps if bench else None,
                              "matmul_tflops": bench.matmul_tflops if bench else None},
                    "points": points})


class _Printer:
    def __init__(self, out: TextIO) -> None:
        self.out = out

    def __call__(self, event) -> None:
        if isinstance(event, CaseResultEvent):
            c = event.result
            if getattr(c, "phase", "check") != "check":
                return
            size = "x".join(map(str, c.shape))
            verdict = "ok  " if c.passed else "FAIL"
            err = f"max abs err {c.max_abs_err:.2e}" if c.max_abs_err is not None else ""
            self.out.write(f"{verdict} {size:>14} {c.dtype:<9} {err}".rstrip() + "\n")
            if not c.passed and c.error:
                self.out.write(f"     {c.error}\n")
        elif isinstance(event, BenchPointEvent):
            p = event.point
            size = "x".join(map(str, p.size))
            if p.ms is None:
                self.out.write(f"time {size:>14} {p.dtype:<9} {p.error or 'not timed'}\n")
                return
            parts = [f"{p.ms * 1e3:9.1f} us"]
            if p.gbps is not None:
                parts.append(f"{p.gbps:7.0f} GB/s")
            if p.pct_of_peak is not None:
                parts.append(f"{p.pct_of_peak:5.1f}% of peak")
            for name, b in (p.baselines or {}).items():
                parts.append(f"{name}: {b['ms'] * 1e3:.1f} us" if b.get("ms") else f"{name}: {b.get('error')}")
            self.out.write(f"time {size:>14} {p.dtype:<9} " + "  ".join(parts) + "\n")
        elif isinstance(event, ErrorEvent):
            e = event.error
            where = f" ({e.file}:{e.line})" if e.file and e.line else ""
            self.out.write(f"error: {e.message}{where}\n")
        elif isinstance(event, ConsoleOutput):
            for line in event.text.splitlines():
                self.out.write(f"| {line}\n")
        elif isinstance(event, LogMessage) and event.level in ("warning", "error"):
            self.out.write(f"{event.level}: {event.message}\n")


def _print_end(result: RunResult, out: TextIO) -> None:
    checked = [c for c in result.cases if getattr(c, "phase", "check") == "check"]
    good = sum(c.passed for c in checked)
    out.write(f"{result.status}: {good} of {len(checked)} points correct on {result.device or 'no device'}\n")
    if result.bench.note:
        out.write(f"timing: {result.bench.note}\n")


if __name__ == "__main__":
    sys.exit(main())
