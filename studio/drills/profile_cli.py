"""`studio-drill profile` and `studio-bench profile`: one point under Nsight Compute.

    studio-drill profile DRILL FILE --size 4096x1024 --dtype float32 [--json] [--python PATH]
                                    [--record] [--attempt ID]
    studio-bench profile FILE:FUNC --size 4096x1024 --dtype float32 [--spec SPEC] [--json]
                                   [--python PATH] [--record] [--run ID]

Prints, per side (the solution, then the torch baseline), each kernel's metrics and the
verdict; --json prints the profile as one JSON document. --record keeps it in the app's
history (with the attempt or bench run named), and says what changed since the previous
profile of the same point. Exit status: 0 profiled, 3 unavailable (no ncu, no GPU, no
permission: the message says what to do), 2 the profile failed or the request is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

EXIT_UNAVAILABLE = 3


def parse_size(text: str) -> list[int]:
    """'4096x1024' -> [4096, 1024]."""
    try:
        size = [int(v) for v in text.lower().replace("×", "x").split("x")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a size is N or NxM (e.g. 4096x1024)") from None
    if not size or any(v <= 0 for v in size):
        raise argparse.ArgumentTypeError(f"{text!r}: sizes are positive")
    return size


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=parse_size, required=True, help="the point's size, e.g. 4096x1024")
    parser.add_argument("--dtype", required=True, help="the point's dtype, e.g. float32")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--python", default=None, metavar="PATH", help="the interpreter with CUDA torch")
    parser.add_argument("--timeout", type=float, default=None, metavar="S",
                        help="seconds for each side's ncu run (default 300)")
    parser.add_argument("--record", action="store_true", help="keep the profile in the app's history")


def add_drill_parser(sub) -> None:
    p = sub.add_parser("profile", help="profile one benchmark point with Nsight Compute (ncu)")
    p.add_argument("drill")
    p.add_argument("file", help="solution file, or @solution / @starter-triton / ...")
    add_common(p)
    p.add_argument("--attempt", type=int, default=None, metavar="ID", help="the attempt this point belongs to")


def add_bench_parser(sub) -> None:
    p = sub.add_parser("profile", help="profile one sweep point with Nsight Compute (ncu)")
    p.add_argument("target", help="the kernel as FILE:FUNC")
    p.add_argument("--spec", help="the bench spec (default: <FILE stem>.bench.py beside FILE)")
    add_common(p)
    p.add_argument("--run", type=int, default=None, metavar="ID", help="the bench run this point belongs to")


def run_drill(args: argparse.Namespace, out: TextIO) -> int:
    from studio.drills.catalog import DrillError
    from studio.drills.profiler import drill_request

    try:
        request = drill_request(args.drill, args.file, args.size, args.dtype, python=args.python)
    except (DrillError, ValueError) as exc:
        print(f"studio-drill: {exc}", file=sys.stderr)
        return 2
    return _profile(request, args, out, "drill", attempt_id=args.attempt)


def run_bench(args: argparse.Namespace, out: TextIO) -> int:
    from studio.drills.bench_cli import default_spec, parse_target
    from studio.drills.profiler import bench_request

    try:
        kernel, func = parse_target(args.target)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    spec = Path(args.spec).expanduser().resolve() if args.spec else default_spec(kernel)
    for path, what in ((kernel, "kernel file"), (spec, "bench spec")):
        if not path.is_file():
            print(f"error: no such {what}: {path}", file=sys.stderr)
            return 2
    request = bench_request(kernel, func, spec, args.size, args.dtype, python=args.python)
    return _profile(request, args, out, "bench", bench_run_id=args.run)


def _profile(request, args: argparse.Namespace, out: TextIO, source: str, attempt_id: int | None = None,
             bench_run_id: int | None = None) -> int:
    from studio.drills.profiler import Profiler, format_profile

    if args.timeout:
        request.timeout_s = float(args.timeout)
    profiler = Profiler()
    try:
        profile = profiler.profile(request, on_progress=None if args.json else
                                   (lambda side: print(f"profiling the {side} under ncu ...", file=sys.stderr)))
    except KeyboardInterrupt:
        profiler.stop()
        print("interrupted", file=sys.stderr)
        return 2
    doc = profile.to_dict()
    if args.record:
        doc["profile_id"], doc["compare"] = _record(doc, source, request.solution, attempt_id, bench_run_id)
    if args.json:
        out.write(json.dumps(doc, indent=1, default=str) + "\n")
    else:
        out.write(format_profile(profile))
        for row in doc.get("compare") or []:
            if row.get("ratio") is not None:
                out.write(f"  since profile #{doc.get('compare_with')}: {row['key']} x{row['ratio']:.2f}\n")
        if doc.get("profile_id"):
            out.write(f"profile #{doc['profile_id']} kept in the history\n")
    if profile.status == "unavailable":
        return EXIT_UNAVAILABLE
    return 0 if profile.status == "ok" else 2


def _record(doc: dict, source: str, solution: str, attempt_id, bench_run_id) -> tuple[int | None, list]:
    try:
        from studio.core.collection import Collection
        from studio.core.kernel_profiles import get_profile, previous, profile_data, record_profile
        from studio.drills.ncu import compare
    except ImportError as exc:
        print(f"note: not kept in the history (the app's database layer is not installed: {exc})", file=sys.stderr)
        return None, []
    try:
        code = Path(solution).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        code = ""
    col = Collection.open()
    try:
        pid = record_profile(col, doc, source, code, attempt_id, bench_run_id)
        before = previous(col, get_profile(col, pid))
        if before is None or doc.get("status") != "ok":
            return pid, []
        doc["compare_with"] = before.id
        return pid, compare(profile_data(before), doc)
    finally:
        col.close()
