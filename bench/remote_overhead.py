"""Remote overhead per drill run: the SSH target against a real sshd on 127.0.0.1 vs a local run.

    python bench/remote_overhead.py [--runs 7] [--out bench/results/remote_overhead.json]

Starts the OS's sshd as the test fixture does (tests/drills/ssh_server.py: throwaway keys, a
free port), then runs the same drill (vector_add, the reference solution, one trial, Triton's
interpreter) alternately on this machine and through the SSH target, so load drifts hit both
alike. The first remote run (master connection + copy of the harness) is reported apart; the
overhead is the median of the paired differences (remote - local) of the later runs. The
target is <= 1 s. Also timed: the SSH target's own start on this side (master check, the run's files
packed, ssh started), one SSH channel with the remote shell (`true`), and that channel plus
the agent's Python importing on the remote: the pieces a remote run adds to a local one.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from studio.drills.runner import DrillRunner, RunRequest  # noqa: E402
from tests.drills.ssh_server import SshServer  # noqa: E402


def _quantiles(values: list[float]) -> dict:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]  # noqa: E731
    return {"median": round(statistics.median(ordered), 3), "p20": round(pick(0.2), 3),
            "p80": round(pick(0.8), 3), "n": len(ordered)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "remote_overhead.json"))
    args = parser.parse_args()
    server = SshServer().start()
    target = server.target()
    request = RunRequest("vector_add", "@solution", interpret=True, trials=1, timeout_s=120)
    try:
        local_runner, remote_runner = DrillRunner(), DrillRunner(target=target)
        started = time.monotonic()
        first = remote_runner.run(request)
        first_s = time.monotonic() - started
        assert first.status == "passed", first.error
        local, remote, diffs = [], [], []
        for _ in range(args.runs):
            t0 = time.monotonic()
            a = local_runner.run(request)
            t1 = time.monotonic()
            b = remote_runner.run(request)
            t2 = time.monotonic()
            assert a.status == b.status == "passed", (a.error, b.error)
            local.append(t1 - t0)
            remote.append(t2 - t1)
            diffs.append((t2 - t1) - (t1 - t0))
        starts = []
        for _ in range(args.runs):
            import tempfile

            payload = {"drill": {"id": "x"}, "solution": str(ROOT / "kernels" / "vector_add" / "solution.py"),
                       "cache_dir": "", "faulthandler_log": ""}
            with tempfile.TemporaryDirectory() as work:
                t0 = time.monotonic()
                child = target.start(payload, work)
                starts.append(time.monotonic() - t0)
                child.kill_group()
                child.wait()
        # The per-run pieces the SSH target adds, without the drill's own work: a channel on the
        # shared connection with the remote shell, and the agent's Python starting there.
        channel, agent = [], []
        for _ in range(args.runs * 3):
            t0 = time.monotonic()
            assert target._call("true", "bench").returncode == 0
            channel.append(time.monotonic() - t0)
            t0 = time.monotonic()
            pkg = target.package_dir()
            out = target._call(f"cd {pkg} && PYTHONPATH=$PWD {target.python} -c 'import studio.drills.targets.agent'",
                               "bench")
            assert out.returncode == 0, out.stderr
            agent.append(time.monotonic() - t0)
    finally:
        target.close()
        server.stop()
    doc = {
        "command": "python bench/remote_overhead.py " + " ".join(sys.argv[1:]),
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.node()} {platform.machine()}, {__import__('os').cpu_count()} CPUs, "
                   f"load average at the end {__import__('os').getloadavg()[0]:.1f}",
        "drill": "vector_add @solution, trials=1, TRITON_INTERPRET (CPU)",
        "first_remote_run_s": round(first_s, 3),
        "local_run_s": _quantiles(local),
        "remote_run_s": _quantiles(remote),
        "overhead_s": _quantiles(diffs),
        "target_start_s": _quantiles(starts),
        "ssh_channel_roundtrip_s": _quantiles(channel),
        "channel_plus_agent_import_s": _quantiles(agent),
        "target_s": 1.0,
        "meets_target": statistics.median(diffs) <= 1.0,
    }
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
