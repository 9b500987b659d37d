"""studio-drill: list drills and run a solution against one, without the GUI.

    studio-drill list [--json] [--lang en|zh]
    studio-drill show DRILL [--lang en|zh]
    studio-drill run DRILL FILE [--bench] [--json] [--timeout S] [--interpret]
                                [--lang auto|triton|torch|cuda] [--python PATH] [--seed N]
                                [--remote HOST]
    studio-drill doctor HOST [--python PATH]
    studio-drill languages [--python PATH] [--json]
    studio-drill profile DRILL FILE --size 4096x1024 --dtype float32 [--json] [--record]

FILE is a path, or @solution / @solution-cuda / @starter-triton / @starter-torch /
@starter-cuda for the drill's own files. A `.cu` file, or Python that calls
load_inline with CUDA sources, is a CUDA solution (built with torch.utils.cpp_extension;
`languages` says whether this machine can build and run one, and if not, why). Exit status of `run`: 0 every case passed, 1 a case failed (or an honesty check
blocked the pass), 2 the run could not be judged (bad file, crash, hang, CUDA error,
unknown drill). With --json, stdout is exactly one JSON document (RunResult.to_json);
without it, the solution's own prints are echoed behind a "| " margin so they can never
pass for the runner's verdict.

`list` and `show` take `--lang zh` for a drill's Chinese title and statement
(statement.zh.md), English where a drill has none; the default is English.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable, Sequence, TextIO

from studio.drills.catalog import DrillError, DrillSpec, get_drill, load_catalog
from studio.drills.events import (
    BuildFinished, BenchInfo, BenchPointEvent, CaseResultEvent, ConsoleOutput, DrillEvent, ErrorEvent,
    FlagRaised, LogMessage, RunStarted,
)
from studio.drills.result import RunResult
from studio.drills.runner import DrillRunner, RunRequest
from studio.drills.targets import remote_target

ResultHook = Callable[[RunResult, DrillSpec], None]
STATEMENT_LANGS = ("en", "zh")  # --lang of list and show


def main(argv: Sequence[str] | None = None, on_result: ResultHook | None = None) -> int:
    """CLI entry point. `on_result` is called with every finished run (attempt logging)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "list":
        return _list(args.json, sys.stdout, args.lang)
    if args.command == "show":
        return _show(args.drill, sys.stdout, args.lang)
    if args.command == "languages":
        return _languages(args.python, args.json, sys.stdout)
    if args.command == "profile":
        from studio.drills.profile_cli import run_drill

        return run_drill(args, sys.stdout)
    if args.command == "packs":
        return _packs(args, sys.stdout)
    if args.command == "doctor":
        return _doctor(args, sys.stdout)
    if args.record and on_result is None:
        on_result = _record_attempt(args.file)
    return _run(args, sys.stdout, on_result)


def _doctor(args: argparse.Namespace, out: TextIO) -> int:
    """What an SSH host has for drills, one line per check; exit 0 when drills can run there."""
    from studio.drills.targets.ssh import SshTarget, check_host

    reason = check_host(args.host)
    if reason:
        sys.stderr.write(f"studio-drill: {reason}\n")
        return 2
    report = SshTarget(args.host, python=args.python).doctor()
    for check in report.checks:
        out.write(f"{'ok' if check.ok else 'MISSING':<8}{check.name:<9}{check.detail}\n")
        if not check.ok and check.fix:
            out.write(f"{'':<17}-> {check.fix}\n")
    if report.ok:
        out.write(f"{args.host}: ready for drills\n")
        return 0
    if report.runnable:
        out.write(f"{args.host}: drills run there, without what is marked MISSING\n")
        return 0
    out.write(f"{args.host}: drills cannot run there yet\n")
    return 1


def _record_attempt(solution: str) -> ResultHook:
    """Store the run in the app's attempt history (the Drills pane shows it).

    Imported only when asked: the database layer is not needed to run drills, e.g. on a
    GPU box without the app's other dependencies.
    """

    def record(result: RunResult, spec: DrillSpec) -> None:
        from studio.core.collection import Collection
        from studio.core.drill_attempts import record_attempt
        from studio.drills.runner import resolve_solution

        try:
            code = resolve_solution(spec, solution).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            code = ""
        col = Collection.open()
        try:
            attempt = record_attempt(col, result.to_dict(), code, language=result.lang or "triton")
        finally:
            col.close()
        sys.stderr.write(f"studio-drill: recorded attempt {attempt} in the app's history\n")

    return record


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="studio-drill", description="Run kernel drills.")
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser("list", help="list the drills")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.add_argument("--lang", choices=STATEMENT_LANGS, default="en",
                         help="titles in this language where the drill has a translated statement (default en)")
    show = sub.add_parser("show", help="print a drill's statement and files")
    show.add_argument("drill")
    show.add_argument("--lang", choices=STATEMENT_LANGS, default="en",
                      help="the statement in this language (zh: statement.zh.md), English where the drill has "
                           "no translation (default en)")
    run = sub.add_parser("run", help="check (and with --bench, time) a solution")
    run.add_argument("drill")
    run.add_argument("file", help="solution file, or @solution / @solution-cuda / @starter-triton / "
                                  "@starter-torch / @starter-cuda")
    run.add_argument("--bench", action="store_true", help="also time it (needs a GPU)")
    run.add_argument("--json", action="store_true", help="print one JSON document")
    run.add_argument("--timeout", type=float, default=None, metavar="S",
                     help="wall-clock limit in seconds (default 120, or 600 with --bench)")
    run.add_argument("--interpret", action="store_true",
                     help="use Triton's interpreter on the CPU even if a GPU is present")
    run.add_argument("--lang", choices=("auto", "triton", "torch", "cuda"), default="auto",
                     help="judge as a Triton, PyTorch or CUDA solution (auto: a .cu file or load_inline "
                          "is CUDA, a file importing triton is Triton (for GPU MODE and LeetGPU problems: one with a Triton "
                          "kernel of its own), anything else PyTorch)")
    run.add_argument("--python", default=None, metavar="PATH",
                     help="interpreter for the run (default: this one; with --remote, the one there, "
                          "default python3)")
    run.add_argument("--remote", default=None, metavar="HOST",
                     help="run on HOST over SSH (an alias from ~/.ssh/config or user@host[:port]; "
                          "key or agent login, never a password)")
    doctor = sub.add_parser("doctor", help="check an SSH host for drills: ssh, Python, torch, triton, GPU, nvcc")
    doctor.add_argument("host", help="an alias from ~/.ssh/config or user@host[:port]")
    doctor.add_argument("--python", default="python3", metavar="PATH", help="the Python there (default python3)")
    run.add_argument("--seed", type=int, default=None, help="base seed (default: random)")
    run.add_argument("--world-size", type=int, default=None, metavar="N",
                     help="ranks for a parallelism drill (2-8; default: the drill's)")
    run.add_argument("--compile-baseline", action="store_true",
                     help="with --bench: also time torch.compile of the drill's torch baseline (a second "
                          "line on the plot; compiled once per shape, outside the timing)")
    run.add_argument("--record", action="store_true",
                     help="store the run in the app's attempt history (shown in the Drills pane)")
    packs = sub.add_parser("packs", help="problem sets kept elsewhere: your drill folders, GPU MODE, LeetGPU")
    packs_sub = packs.add_subparsers(dest="packs_command", required=True)
    packs_add = packs_sub.add_parser("add", help="add a folder (read where it is, never copied)")
    packs_add.add_argument("path")
    packs_add.add_argument("--name", default=None, help="the pack's name (default: from the folder)")
    packs_list = packs_sub.add_parser("list", help="the added packs")
    packs_list.add_argument("--json", action="store_true", help="print JSON")
    packs_show = packs_sub.add_parser("show", help="a pack's problems")
    packs_show.add_argument("name")
    packs_show.add_argument("--json", action="store_true", help="print JSON")
    packs_remove = packs_sub.add_parser("remove", help="forget a pack (its folder is not touched)")
    packs_remove.add_argument("name", help="the pack's name or folder")
    from studio.drills.profile_cli import add_drill_parser

    add_drill_parser(sub)
    langs = sub.add_parser("languages", help="which solution languages this machine can run, and why not")
    langs.add_argument("--python", default=None, metavar="PATH", help="the drill interpreter (default: this one)")
    langs.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _languages(python: str | None, as_json: bool, out: TextIO) -> int:
    from studio.drills.languages import LANGUAGES, probe_facts
    from studio.drills.languages.cuda import availability

    facts = probe_facts(python)
    cuda = availability(facts)
    rows = []
    for lang in LANGUAGES.values():
        if lang.name == "cuda":
            ok, why = cuda.ok, (f"nvcc {facts.get('nvcc')} on {facts.get('gpu')}" if cuda.ok else cuda.message())
        elif not facts.get("torch"):
            ok, why = False, availability(facts).message()
        else:
            ok, why = True, ("on " + facts["gpu"]) if facts.get("gpu") else "under Triton's interpreter (CPU)"
        rows.append({"language": lang.name, "label": lang.label, "available": ok, "detail": why})
    if as_json:
        out.write(json.dumps({"languages": rows, "facts": facts}, indent=2) + "\n")
        return 0
    for row in rows:
        state = "available" if row["available"] else "unavailable"
        out.write(f"{row['label']:<10} {state:<12} {row['detail']}\n")
    if facts.get("nvcc"):
        out.write(f"\nnvcc {facts['nvcc']} ({facts.get('nvcc_path')}), torch {facts.get('torch')} "
                  f"(CUDA {facts.get('torch_cuda')}), GPU {facts.get('gpu') or 'none'}\n")
    return 0


def _packs(args: argparse.Namespace, out: TextIO) -> int:
    from studio.drills import packs

    try:
        if args.packs_command == "add":
            pack = packs.add_pack(args.path, args.name)
            broken = sum(not p.ok for p in pack.problems)
            out.write(f"added {pack.name!r}: {packs.LAYOUT_LABELS[pack.layout]} at {pack.path}, "
                      f"{len(pack.problems)} problem(s)" + (f", {broken} broken" if broken else "") + "\n")
            if pack.layout != "drills":
                out.write(f"run one: studio-drill run {pack.name}/<group>/<problem> FILE [--bench]; "
                          f"studio-drill packs show {pack.name} lists them\n")
            return 0
        if args.packs_command == "remove":
            entry = packs.remove_pack(args.name)
            out.write(f"removed {entry['name']!r} ({entry['path']}); the folder is untouched\n")
            return 0
        if args.packs_command == "list":
            loaded = packs.load_packs()
            if args.json:
                out.write(json.dumps([p.summary() for p in loaded], indent=2) + "\n")
                return 0
            if not loaded:
                out.write("no packs: studio-drill packs add PATH\n")
            for pack in loaded:
                what = packs.LAYOUT_LABELS.get(pack.layout or "", "unreadable")
                state = f"ERROR {pack.error}" if pack.error else f"{len(pack.problems)} problem(s)"
                out.write(f"{pack.name:<20} {what:<28} {state}  {pack.path}\n")
            return 0
        pack = packs.find_pack(args.name)
    except packs.PackError as exc:
        sys.stderr.write(f"studio-drill: {exc}\n")
        return 2
    if args.json:
        out.write(json.dumps({**pack.summary(), "problems": [p.summary() for p in pack.problems]}, indent=2) + "\n")
        return 0
    if pack.error:
        out.write(f"{pack.name}: {pack.error}\n")
        return 1
    group = None
    for problem in pack.problems:
        if problem.group != group:
            group = problem.group
            if group:
                out.write(f"\n[{group}]\n")
        if not problem.ok:
            out.write(f"  {problem.id:<44} BROKEN  {problem.error}  ({problem.folder})\n")
            continue
        langs = ", ".join(problem.starters) or "none"
        other = f"; not here: {', '.join(problem.unsupported)}" if problem.unsupported else ""
        gpus = f"; needs {problem.gpus} GPUs" if problem.gpus > 1 else ""
        targets = f"; set for {', '.join(problem.targets)}" if problem.targets else ""
        out.write(f"  {problem.id:<44} {problem.difficulty or '-':<7} {problem.title}  "
                  f"[{langs}{other}{gpus}{targets}]\n")
    return 0


def _list(as_json: bool, out: TextIO, lang: str = "en") -> int:
    from studio.drills.packs import PackError, pack_drills

    drills = load_catalog()
    try:
        drills += pack_drills()
    except PackError as exc:
        sys.stderr.write(f"studio-drill: packs not listed: {exc}\n")
    if as_json:
        out.write(json.dumps([d.summary(lang) for d in drills], indent=2) + "\n")
        return 0
    for drill in drills:
        if drill.ok:
            out.write(f"{drill.id:<12} {drill.difficulty:<7} {drill.time_limit_min:>3} min  "
                      f"{drill.title_for(lang)}  [{', '.join(drill.tags)}]\n")
        else:
            out.write(f"{drill.id:<12} BROKEN  {drill.error}\n")
    return 0


def _show(drill_id: str, out: TextIO, lang: str = "en") -> int:
    try:
        drill = get_drill(drill_id)
    except DrillError as exc:
        sys.stderr.write(f"studio-drill: {exc}\n")
        return 2
    out.write(drill.statement_for(lang).rstrip() + "\n\n")
    out.write(f"entry point:     {drill.signature}\n")
    out.write(f"triton starter:  {drill.starter_triton}\n")
    out.write(f"pytorch starter: {drill.starter_torch}\n")
    if drill.starter_cuda:
        out.write(f"cuda starter:    {drill.starter_cuda}\n")
    return 0


def _run(args: argparse.Namespace, out: TextIO, on_result: ResultHook | None) -> int:
    request = RunRequest(drill=args.drill, solution=args.file, bench=args.bench,
                         interpret=args.interpret, timeout_s=args.timeout, lang=args.lang,
                         seed=args.seed, world_size=args.world_size,
                         compile_baseline=args.compile_baseline)
    target = remote_target(args.remote, args.python)
    runner = DrillRunner(python=None if target else args.python, target=target)
    printer = None if args.json else _Printer(out)
    if printer is not None and target is not None:
        out.write(f"target: {target.label} ({target.python})\n")
    try:
        result = runner.run(request, on_event=printer.show if printer else None)
    except KeyboardInterrupt:
        runner.stop()
        sys.stderr.write("studio-drill: interrupted\n")
        return 2
    if on_result is not None:
        try:
            on_result(result, get_drill(args.drill))
        except DrillError:
            pass
    if args.json:
        out.write(result.to_json() + "\n")
    else:
        printer.summary(result)
    return result.cli_exit_code


class _Printer:
    """Human-readable progress for a terminal."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._line_start = True

    def show(self, event: DrillEvent) -> None:
        out = self.out
        if isinstance(event, RunStarted):
            mode = "GPU" if event.mode == "gpu" else "Triton interpreter (CPU, small shapes)"
            if event.world_size:
                mode = f"{event.world_size} ranks on {event.backend}" + (" (CPU)" if event.mode == "cpu" else "")
            out.write(f"mode: {mode}  device: {event.device}  lang: {event.lang}\n")
            out.write(f"versions: {', '.join(f'{k} {v}' for k, v in event.versions.items())}\n")
        elif isinstance(event, BuildFinished):
            how = "loaded from the build cache" if event.cached else "built"
            out.write(f"CUDA: {how} in {event.seconds:.2f} s (nvcc {event.toolkit}, arch {event.arch})\n")
            for warning in event.warnings or []:
                out.write("  " + str(warning).replace("\n", "\n  ") + "\n")
        elif isinstance(event, CaseResultEvent):
            case = event.result
            if case.passed:
                err = f"  max abs err {case.max_abs_err:.2e}" if case.max_abs_err is not None else ""
                out.write(f"  PASS  {case.name}  {case.shape} {case.dtype}{err}\n")
            else:
                out.write(f"  FAIL  {case.name}  {case.shape} {case.dtype}: {case.error}\n")
        elif isinstance(event, BenchInfo):
            out.write(f"bench: {event.note}\n")
        elif isinstance(event, BenchPointEvent):
            p = event.point
            if p.passed and p.ms is not None and p.algbw is not None:
                out.write(f"  {p.bytes:>11} B {p.dtype:<9} {p.ms * 1e3:9.1f} us  algbw {p.algbw:7.3f} GB/s  "
                          f"busbw {p.gbps:7.3f} GB/s  |  {p.baseline}: {p.ref_ms * 1e3:9.1f} us  "
                          f"busbw {p.ref_gbps:7.3f} GB/s  speedup {p.speedup:5.2f}x\n")
            elif p.passed and p.ms is not None:
                pct = f"{p.pct_of_peak:5.1f}%" if p.pct_of_peak is not None else "   n/a"
                out.write(f"  {str(p.size):<14} {p.dtype:<9} {p.ms * 1e3:9.1f} us "
                          f"[{p.p20 * 1e3:.1f}-{p.p80 * 1e3:.1f}]  {p.gbps:7.0f} GB/s {pct} of copy  "
                          f"torch {p.ref_ms * 1e3:9.1f} us  speedup {p.speedup:5.2f}x\n")
            else:
                out.write(f"  {str(p.size):<14} {p.dtype:<9} FAIL: {p.error}\n")
        elif isinstance(event, FlagRaised):
            kind = "FLAG" if event.flag.blocking else "NOTE"
            out.write(f"  {kind}  {event.flag.name}: {event.flag.detail}\n")
        elif isinstance(event, ConsoleOutput):
            self._echo(event.text)
        elif isinstance(event, LogMessage):
            out.write(f"  [{event.level}] {event.message}\n")
        elif isinstance(event, ErrorEvent):
            pass  # summarised at the end
        out.flush()

    def _echo(self, text: str) -> None:
        for piece in text.splitlines(keepends=True):
            if self._line_start:
                self.out.write("  | ")
            self.out.write(piece)
            self._line_start = piece.endswith("\n")

    def summary(self, result: RunResult) -> None:
        out = self.out
        if not self._line_start:
            out.write("\n")
        if result.console.stdout_dropped_bytes or result.console.stderr_dropped_bytes:
            out.write(f"  (solution output cut: {result.console.stdout_dropped_bytes} bytes of "
                      f"stdout and {result.console.stderr_dropped_bytes} of stderr dropped)\n")
        if result.error is not None:
            out.write(f"ERROR ({result.status}): {result.error.message}\n")
        passed = sum(c.passed for c in result.cases)
        verdict = {"passed": "PASSED", "failed": "FAILED"}.get(result.status, "ERROR")
        out.write(f"{verdict}: {result.drill}, {passed}/{len(result.cases)} cases passed"
                  f"{', flags: ' + ', '.join(result.flag_names()) if result.flags else ''}"
                  f" ({result.duration_s:.1f} s)\n")


if __name__ == "__main__":
    raise SystemExit(main())
