"""Drills on a GPU through the SSH target, against a real sshd on 127.0.0.1 of the GPU machine.

    python bench/remote_gpu.py --python /path/to/remote/python3 --out DIR

For the SSH target's claim that CUDA drills, timed runs and parallelism drills work on a
remote GPU as they do locally: on a machine with an NVIDIA GPU, starts the OS's sshd as the
test fixture does (tests/drills/ssh_server.py), then through the SSH target runs the
connection doctor, asks the GPU's name, and runs (each also run locally for comparison):
a CUDA reference solution (built there with torch.utils.cpp_extension), a Triton reference
solution with timing (--bench), a failing starter, and a parallelism drill with 2 ranks
where the machine has 2 GPUs (gloo otherwise). Writes DIR/remote_gpu.json and prints a
summary. `--python` is the Python the sshd session should run (an SSH session starts with
a fresh environment: give a wrapper that sets what that Python needs, e.g. LD_LIBRARY_PATH).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from studio.drills.runner import DrillRunner, RunRequest  # noqa: E402
from tests.drills.ssh_server import SshServer  # noqa: E402


def summary(result) -> dict:
    data = result.to_dict()
    error = data.get("error") or {}
    return {"status": result.status, "device": result.device,
            "cases": [[c.name, c.passed] for c in result.cases],
            "error": error.get("message") if isinstance(error, dict) else error,
            "points": [{k: p.get(k) for k in ("size", "dtype", "ms", "ref_ms", "gbps", "pct_of_peak", "passed",
                                               "invalid", "error")} for p in (data.get("bench") or {}).get("points", [])]}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--python", required=True, help="the Python an sshd session runs")
    parser.add_argument("--out", required=True)
    parser.add_argument("--world-size", type=int, default=2)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server = SshServer().start()
    target = server.target(python=args.python)
    record: dict = {"runs": []}
    try:
        t = time.monotonic()
        report = target.doctor()
        record["doctor"] = {"ok": report.ok, "checks": [asdict(c) for c in report.checks],
                            "s": round(time.monotonic() - t, 2)}
        record["device_name"] = target.device_name()
        remote, local = DrillRunner(target=target), DrillRunner()
        plan = [
            ("vector_add", "@solution-cuda", {}),
            ("vector_add", "@starter-cuda", {}),
            ("softmax", "@solution", {"bench": True}),
            ("ring_allreduce", "@solution", {"world_size": args.world_size}),
        ]
        for drill, solution, extra in plan:
            for where, runner in (("remote", remote), ("local", local)):
                t = time.monotonic()
                result = runner.run(RunRequest(drill, solution, timeout_s=400, **extra))
                row = {"drill": drill, "solution": solution, "where": where, **extra,
                       "wall_s": round(time.monotonic() - t, 2), **summary(result)}
                record["runs"].append(row)
                print(f"{where:6} {drill:15} {solution:15} {row['status']:10} {row['wall_s']:7.1f} s  "
                      f"{row['device']}  {str(row['error'] or '')[:160]}", flush=True)
                for p in row["points"]:
                    print(f"        {p['size']} {p['dtype']} ms {p['ms']} ref {p['ref_ms']} "
                          f"pct {p['pct_of_peak']} {p['invalid'] or ''}", flush=True)
    finally:
        (out / "remote_gpu.json").write_text(json.dumps(record, indent=1, default=str))
        target.close()
        server.stop()
    print(json.dumps(record.get("doctor"), default=str)[:3000])
    print("device name over ssh:", record.get("device_name"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
