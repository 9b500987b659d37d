"""The cheat, honest and bad-kernel fixtures of the test suite, judged on a real GPU.

    STUDIO_HOME=/tmp/sh PYTHONPATH=. python3 bench/cheats_gpu_check.py --out FILE.json [--jobs 4]

tests/drills/test_cheats.py and test_bad_kernels.py run every fixture in Triton's
interpreter on the CPU and skip the GPU-only ones. This runs all of them on the GPU with
the verdicts those tests expect (imported from them, so the two never drift): cheats must
fail with their status / flag / text (GPU-only cheats with --bench, where their timing
tricks would show), the unusual honest solutions must pass without a flag, and every bad
kernel must get its expected status. Prints one line per fixture and writes them to --out;
exits 1 if any verdict differs.
"""

from __future__ import annotations

import argparse
import concurrent.futures as futures
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from studio.drills.runner import DrillRunner, RunRequest  # noqa: E402
from tests.drills.test_bad_kernels import EXPECTED, HANG_TIMEOUT_S, error_says  # noqa: E402
from tests.drills.test_cheats import CHEAT_VERDICTS  # noqa: E402
from tests.drills.test_cheats import HONEST_SOLUTIONS as HONEST  # noqa: E402

DRILLS = REPO / "tests" / "drills"


INTERPRET = False      # --interpret: the same checks in Triton's interpreter (to try this script without a GPU)


def judge(kind: str, name: str) -> dict:
    started = time.time()
    if kind == "cheat":
        expect = CHEAT_VERDICTS[name]
        request = RunRequest(drill="softmax", solution=str(DRILLS / "cheats" / f"{name}.py"),
                             bench=expect.gpu_only, trials=expect.trials, timeout_s=240)
    elif kind == "honest":
        drill = dict((n, d) for d, n in HONEST)[name]
        request = RunRequest(drill=drill, solution=str(DRILLS / "honest" / f"{name}.py"), trials=1, timeout_s=240)
    else:
        expect = EXPECTED[name]
        timeout = HANG_TIMEOUT_S if expect.status == "timeout" else 240
        request = RunRequest(drill=expect.drill, solution=str(DRILLS / "bad_kernels" / f"{name}.py"),
                             bench=expect.bench, trials=1, timeout_s=timeout)
    if INTERPRET:
        request.interpret = True
    result = DrillRunner().run(request)
    flags = result.flag_names()
    failing = [c.error for c in result.cases if not c.passed]
    where = failing[0] if failing else (result.error.message if result.error else "")
    problems = []
    if kind == "honest":
        if not result.passed:
            problems.append(f"did not pass: {result.status} {where[:200]}")
        if result.flags:
            problems.append(f"flags {flags}")
    elif kind == "cheat":
        allowed = expect.status if isinstance(expect.status, tuple) else (expect.status,)
        if result.passed or result.status not in allowed:
            problems.append(f"status {result.status}, expected {allowed}")
        if expect.flag and expect.flag not in flags:
            problems.append(f"flag {expect.flag} missing (flags {flags})")
        if expect.text and expect.text not in where:
            problems.append(f"text {expect.text!r} not in {where[:200]!r}")
    else:
        if result.passed or result.status != expect.status:
            problems.append(f"status {result.status}, expected {expect.status}")
        cases = {c.name: c for c in result.cases}
        for case, text in expect.failing.items():
            if not INTERPRET and case in expect.gpu_racy:
                continue        # which program writes last decides it on a GPU; the run still fails
            if case in cases and (cases[case].passed or not error_says(cases[case].error, text)):
                problems.append(f"case {case}: {cases[case].error!r:.200}")
        for case in expect.passing:
            if case in cases and not cases[case].passed:
                problems.append(f"case {case} should pass: {cases[case].error!r:.200}")
        if expect.flag and expect.flag not in flags:
            problems.append(f"flag {expect.flag} missing (flags {flags})")
        if expect.error and (not result.error or expect.error not in result.error.message):
            problems.append(f"error {expect.error!r} not in {where[:200]!r}")
    return {"kind": kind, "name": name, "status": result.status, "flags": flags, "device": result.device,
            "first_error": where[:300], "ok": not problems, "problems": problems,
            "seconds": round(time.time() - started, 1)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--only", default="", help="comma-separated fixture names")
    parser.add_argument("--interpret", action="store_true")
    args = parser.parse_args()
    global INTERPRET
    INTERPRET = args.interpret
    work = ([("cheat", n) for n in CHEAT_VERDICTS] + [("honest", n) for _, n in HONEST]
            + [("bad", n) for n in EXPECTED])
    if args.only:
        work = [w for w in work if w[1] in args.only.split(",")]
    rows = []
    # Printed and written as each verdict arrives: a run cut short by a time limit keeps them.
    with futures.ThreadPoolExecutor(args.jobs) as pool:
        for done in futures.as_completed([pool.submit(judge, *w) for w in work]):
            row = done.result()
            rows.append(row)
            print(("ok  " if row["ok"] else "BAD ") + f"{row['kind']:6} {row['name']:28} {row['status']:12} "
                  f"{row['flags']} {row['seconds']} s {'; '.join(row['problems'])}", flush=True)
            Path(args.out).write_text(json.dumps({"command": " ".join(sys.argv), "rows": rows}, indent=1))
    bad = [r for r in rows if not r["ok"]]
    print(f"{len(rows) - len(bad)} of {len(rows)} verdicts as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
