"""The SSH target against a real OpenSSH server on 127.0.0.1 (tests/drills/ssh_server.py).

Drills run through it under Triton's interpreter: a pass, a failure, a hang stopped by Stop,
a dropped connection (the sshd session killed mid-run), and the faults a user meets
(refused port, refused key, no Python, no torch, a full disk), each with a message naming
its step and nothing left running on the "remote". Skipped, with the reason, without sshd.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from studio.drills.events import CaseStarted
from studio.drills.runner import DrillRunner, RunRequest
from studio.drills.targets import TargetError
from studio.drills.targets import ssh as ssh_target

from .conftest import BAD_KERNELS
from .ssh_server import SshServer, find_sshd


@pytest.fixture(scope="module")
def server():
    if find_sshd() is None:
        pytest.skip("no sshd on this machine: install the openssh-server package (Debian/Ubuntu) "
                    "to run the SSH target tests")
    if shutil.which("ssh") is None:
        pytest.skip("no ssh client on this machine: install openssh-client")
    srv = SshServer()
    try:
        srv.start()
    except RuntimeError as exc:
        shutil.rmtree(srv.folder, ignore_errors=True)
        pytest.skip(f"sshd would not start here: {exc}")
    yield srv
    srv.target().close()
    srv.stop()


@pytest.fixture(scope="module")
def target(server):
    return server.target()


def remote_processes(root: str) -> list[str]:
    """Live processes started for a run under `root` (their environment names the package there)."""
    marker = f"PYTHONPATH={root}/pkg-".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{name}/environ").read_bytes()
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if marker in environ or root.encode() in cmdline:
            found.append(f"{name}: {cmdline.decode(errors='replace')[:120]}")
    return found


def wait_until_clean(root: str, seconds: float = 8.0) -> list[str]:
    deadline = time.monotonic() + seconds
    left = remote_processes(root)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = remote_processes(root)
    return left


def _runs_left(root: str) -> list[str]:
    runs = Path(root) / "runs"
    return sorted(p.name for p in runs.iterdir()) if runs.is_dir() else []


# ----- runs ------------------------------------------------------------------------------
def test_a_pass_and_a_failure_come_back_with_console_and_device(target, tmp_path):
    runner = DrillRunner(target=target)
    right = tmp_path / "add.py"          # plain PyTorch: the Triton path is run by the Stop and drop tests
    right.write_text("def add(x, y):\n    return x + y\n")
    result = runner.run(RunRequest("vector_add", str(right), interpret=True, trials=1, timeout_s=90, lang="torch"))
    assert result.status == "passed", result.error
    assert result.cases and all(c.passed for c in result.cases)
    assert "interpreter" in (result.device or "") and result.versions.get("torch")
    wrong = tmp_path / "wrong_add.py"
    wrong.write_text("def add(x, y):\n    print('hello from the remote side')\n    return x - y\n")
    result = runner.run(RunRequest("vector_add", str(wrong), interpret=True, trials=1, timeout_s=90,
                                   lang="torch"))
    assert result.status == "failed" and any(not c.passed for c in result.cases)
    assert "hello from the remote side" in result.console.stdout
    assert result.file == str(wrong)                       # the local path, not the remote copy
    assert _runs_left(target.root) == [] and remote_processes(target.root) == []


def test_a_finished_run_releases_its_writer_at_once(target, tmp_path, monkeypatch):
    """The thread feeding ssh's stdin ends with the run: left blocked on its queue, wait()
    sat out its 1 s join timeout on every run (most of the remote overhead measured in
    bench/results/remote_overhead.md)."""
    children = []
    start = ssh_target.SshTarget.start

    def spy(self, payload, workdir):
        child = start(self, payload, workdir)
        children.append(child)
        return child

    monkeypatch.setattr(ssh_target.SshTarget, "start", spy)
    right = tmp_path / "add.py"
    right.write_text("def add(x, y):\n    return x + y\n")
    result = DrillRunner(target=target).run(RunRequest("vector_add", str(right), interpret=True, trials=1,
                                                       timeout_s=90, lang="torch"))
    assert result.status == "passed", result.error
    (child,) = children
    assert not child._writer.is_alive() and child.proc.stdin.closed


def _wait_for_grandchild(root: str, seconds: float = 30.0) -> list[str]:
    """The run's processes once the solution's sleeping grandchild is among them."""
    deadline = time.monotonic() + seconds
    found = remote_processes(root)
    while not any("time.sleep(600)" in line for line in found) and time.monotonic() < deadline:
        time.sleep(0.1)
        found = remote_processes(root)
    return found


def _run_until_case_started(runner, request, action) -> object:
    """Run; once a case has started (and its worker has had a moment), call action() from a thread."""
    fired = threading.Event()

    def on_event(event):
        if isinstance(event, CaseStarted) and not fired.is_set():
            fired.set()
            threading.Thread(target=action, daemon=True).start()

    return runner.run(request, on_event=on_event)


def test_stop_ends_the_remote_process_group_and_what_it_left(target):
    runner = DrillRunner(target=target)
    started = time.monotonic()
    seen: list[str] = []

    def stop():
        seen.extend(_wait_for_grandchild(target.root))
        runner.stop()

    # The solution starts a grandchild that sleeps 600 s, then spins: both must go.
    result = _run_until_case_started(runner, RunRequest("softmax", str(BAD_KERNELS / "leaves_grandchild.py"),
                                                        interpret=True, timeout_s=120), stop)
    assert result.status == "stopped", result.error
    # agent, judge, worker and the grandchild were there and were found by the check below
    assert len(seen) >= 4 and any("time.sleep(600)" in line for line in seen), seen
    assert time.monotonic() - started < 60
    assert wait_until_clean(target.root) == []
    assert _runs_left(target.root) == []


def test_a_dropped_connection_is_named_and_leaves_nothing_running(server, target):
    runner = DrillRunner(target=target)
    seen: list[str] = []

    def drop():
        seen.extend(_wait_for_grandchild(target.root))
        server.drop_connections()

    result = _run_until_case_started(runner, RunRequest("softmax", str(BAD_KERNELS / "leaves_grandchild.py"),
                                                        interpret=True, timeout_s=120), drop)
    assert result.status == "remote_error", result.error
    assert len(seen) >= 4 and any("time.sleep(600)" in line for line in seen), seen
    assert "step 'run'" in result.error.message and "studio-test" in result.error.message
    assert "dropped" in result.error.message or "closed" in result.error.message
    assert wait_until_clean(target.root) == []
    # The next run connects again: a fresh master, and a command through it.
    assert target._connected_at < 0
    target.connect()
    assert isinstance(target.device_name(), str)


# ----- faults ----------------------------------------------------------------------------
def test_a_refused_port_and_a_refused_key_say_which(server, tmp_path):
    with socket_port() as port:
        refused = ssh_target.SshTarget(f"127.0.0.1:{port}", ssh_options=server.ssh_options,
                                       control_dir=server.control_dir)
        with pytest.raises(TargetError) as info:
            refused.connect()
    assert info.value.step == "connect" and "refused the connection" in str(info.value)
    stranger = tmp_path / "stranger_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(stranger)], check=True)
    config = tmp_path / "config"
    config.write_text(server.config.read_text().replace(str(server.folder / "user_key"), str(stranger)))
    wrong_key = ssh_target.SshTarget("studio-test", ssh_options=["-F", str(config)],
                                     control_dir=server.control_dir + "-x")
    result = DrillRunner(target=wrong_key).run(RunRequest("vector_add", "@solution", interpret=True))
    assert result.status == "remote_error" and "authentication refused" in result.error.message
    assert "step 'connect'" in result.error.message


class socket_port:
    """A local port with nothing listening on it."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]

    def __exit__(self, *exc) -> None:
        return None


def test_a_login_shell_that_prints_does_not_confuse_the_stream(server, tmp_path):
    """An rc file that echoes on every SSH command writes before the agent: skipped."""
    chatty = server.target(python=sys.executable, root=str(server.folder / "remote"))
    script = tmp_path / "noisy_python"
    script.write_text(f"#!/bin/sh\necho 'Welcome to the GPU box'\nexec {sys.executable} \"$@\"\n")
    script.chmod(0o755)
    chatty.python = str(script)
    right = tmp_path / "add.py"
    right.write_text("def add(x, y):\n    return x + y\n")
    result = DrillRunner(target=chatty).run(RunRequest("vector_add", str(right), interpret=True, trials=1,
                                                       lang="torch", timeout_s=90))
    assert result.status == "passed", result.error


def test_no_python_and_no_torch_there(server):
    nowhere = server.target(python="/nonexistent/bin/python3")
    result = DrillRunner(target=nowhere).run(RunRequest("vector_add", "@solution", interpret=True))
    assert result.status == "remote_error"
    assert "no Python at '/nonexistent/bin/python3'" in result.error.message
    assert "check the remote Python" in result.error.message
    report = nowhere.doctor()
    assert [c.name for c in report.checks] == ["ssh", "python"] and not report.checks[1].ok
    facts = nowhere.language_facts()            # the Drills pane's language picker asks the host
    assert "check the remote Python" in facts["probe_error"]
    bare = "/usr/bin/python3"
    has_torch = subprocess.run([bare, "-c", "import torch"], capture_output=True).returncode == 0 \
        if os.access(bare, os.X_OK) else True
    if has_torch:
        return
    result = DrillRunner(target=server.target(python=bare)).run(
        RunRequest("vector_add", "@solution", interpret=True))
    assert result.status == "harness_error" and "torch" in result.error.message


def test_a_full_remote_disk_names_the_copy_step(server, tmp_path):
    full = Path(server.folder) / "full"
    full.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(full)],
                             capture_output=True).returncode == 0 if os.geteuid() == 0 else False
    if not mounted:
        pytest.skip("cannot mount a small tmpfs here (needs root) to fill a disk")
    try:
        target = server.target(root=str(full / "remote"))
        result = DrillRunner(target=target).run(RunRequest("vector_add", "@solution", interpret=True))
        assert result.status == "remote_error", result.error
        assert "step 'copy the harness'" in result.error.message and "disk is full" in result.error.message
        assert [p.name for p in (full / "remote").iterdir()] == []     # no half copy left behind
    finally:
        subprocess.run(["umount", str(full)], capture_output=True)


def test_doctor_lists_what_the_remote_has(target):
    report = target.doctor()
    names = {c.name: c for c in report.checks}
    assert list(names) == ["ssh", "python", "harness", "torch", "triton", "gpu", "nvcc"]
    assert names["ssh"].ok and names["python"].ok and names["harness"].ok and names["torch"].ok
    if not report.facts.get("gpu"):
        assert not names["gpu"].ok and report.device == ""
        assert "interpreter" in names["gpu"].fix


# ----- pieces without a server -------------------------------------------------------------
def test_host_forms_and_bad_hosts():
    assert ssh_target.split_host("gpu-box") == ("gpu-box", None)
    assert ssh_target.split_host("me@10.0.0.2:2222") == ("me@10.0.0.2", "2222")
    assert ssh_target.check_host("-oProxyCommand=x") and ssh_target.check_host("a b")
    assert ssh_target.check_host("") == "no host given" and ssh_target.check_host("me@box:22") == ""
    with pytest.raises(TargetError) as info:
        ssh_target.SshTarget("-oProxyCommand=touch /tmp/x").connect()
    assert info.value.step == "connect"


def test_ssh_messages_name_the_step_and_the_cause():
    cases = {
        "ssh: Could not resolve hostname nope: Name or service not known": "cannot be resolved",
        "ssh: connect to host 10.0.0.9 port 22: Connection timed out": "cannot be reached",
        "me@box: Permission denied (publickey).": "authentication refused",
        "Host key verification failed.": "host key",
        "Connection to box closed by remote host.": "dropped",
    }
    for stderr, words in cases.items():
        message = ssh_target.ssh_failure("box", "connect", stderr, 255)
        assert words in message and "step 'connect'" in message and stderr.splitlines()[-1] in message


def test_request_paths_are_mapped_and_the_files_sent(tmp_path):
    drill = tmp_path / "drill"
    drill.mkdir()
    (drill / "spec.py").write_text("x = 1\n")
    (drill / "__pycache__").mkdir()
    (drill / "__pycache__" / "spec.cpython-311.pyc").write_bytes(b"junk")
    solution = tmp_path / "mine.py"
    solution.write_text("def f(): pass\n")
    payload = {"drill": {"id": "d", "spec_module": str(drill / "spec.py")}, "solution": str(solution),
               "cache_dir": "/home/me/cache", "faulthandler_log": "/tmp/x/faulthandler.log"}
    request, files = ssh_target.map_request(payload)
    assert request["solution"] == "@STUDIO_RUN@/files" + str(solution)
    assert request["drill"]["spec_module"] == "@STUDIO_RUN@/files" + str(drill / "spec.py")
    assert request["cache_dir"] == "@STUDIO_CACHE@"
    assert sorted(files.files) == sorted([str(solution), str(drill / "spec.py")])
    assert payload["solution"] == str(solution)                      # the runner's copy is untouched
    small = ssh_target.RunFiles(limit=4)
    with pytest.raises(TargetError) as info:
        small.add_file(solution)
    assert info.value.step == "collect the run's files"


def test_the_package_hash_changes_with_the_harness():
    digest, data = ssh_target.package_tar()
    assert len(digest) == 16 and len(data) > 10_000
    import io
    import tarfile

    names = tarfile.open(fileobj=io.BytesIO(data)).getnames()
    assert "studio/drills/harness/judge.py" in names and "studio/drills/targets/agent.py" in names
    assert not any("__pycache__" in n for n in names)


def test_a_parallelism_drill_runs_its_ranks_on_the_remote(target):
    """Two gloo ranks of ring all-reduce started by the remote judge: per-rank results come back,
    and nothing of either rank is left running there."""
    result = DrillRunner(target=target).run(RunRequest("ring_allreduce", "@solution", interpret=True,
                                                       trials=1, timeout_s=240, world_size=2))
    assert result.status == "passed", result.error
    assert result.world_size == 2 and "2 ranks" in (result.device or "")
    assert result.cases and all(c.passed for c in result.cases)
    assert {r["rank"] for c in result.cases for r in c.ranks} == {0, 1}
    assert wait_until_clean(target.root) == [] and _runs_left(target.root) == []


# ----- the command lines -------------------------------------------------------------------
def test_the_clis_run_remotely(server, capsys, monkeypatch):
    import json
    import sys

    from studio.drills import bench_cli, cli

    monkeypatch.setenv("STUDIO_SSH_CONFIG", str(server.config))       # what ~/.ssh/config does for a user
    monkeypatch.setattr(ssh_target, "DEFAULT_ROOT", str(server.folder / "remote"))
    fixtures = Path(__file__).resolve().parent / "bench_fixtures"
    try:
        code = bench_cli.main(["run", f"{fixtures / 'row_scale.py'}:row_scale_torch", "--spec",
                               str(fixtures / "row_scale.bench.py"), "--interpret", "--json", "--no-record",
                               "--remote", "studio-test", "--python", sys.executable])
        doc = json.loads(capsys.readouterr().out)
        assert code == 0 and len(doc["points"]) == 4 and all(p["passed"] for p in doc["points"])
        assert cli.main(["doctor", "studio-test", "--python", "/nonexistent/python3"]) == 1
        out = capsys.readouterr().out
        assert out.startswith("ok") and "MISSING python" in out and "cannot run there yet" in out
    finally:
        ssh_target.SshTarget("studio-test", control_dir=None).close()


def test_gpu_mode_and_leetgpu_problems_run_remotely_with_their_own_files(target, tmp_path):
    """A pack problem's folder and its import roots' helpers (GPU MODE's utils.py beside the
    problems, LeetGPU's core/) go with the run; the user's clone stays where it is."""
    from studio.drills import packs
    from studio.drills.catalog import get_drill

    fixtures = Path(__file__).resolve().parent / "pack_fixtures"
    for name in ("gpumode", "leetgpu"):
        shutil.copytree(fixtures / name, tmp_path / name)
    packs.add_pack(tmp_path / "gpumode", name="gm")
    packs.add_pack(tmp_path / "leetgpu", name="lg")
    runner = DrillRunner(target=target)
    folder = tmp_path / "gpumode" / "problems" / "practice" / "scale_py"
    result = runner.run(RunRequest("gm/practice/scale_py", str(folder / "submission.py"), interpret=True,
                                   problem=get_drill("gm/practice/scale_py").to_request()))
    assert result.status == "passed", result.error
    right = tmp_path / "right.py"
    right.write_text("import torch\n\n\ndef solve(x, y, n):\n    torch.mul(x, 3, out=y)\n")
    result = runner.run(RunRequest("lg/easy/1_scale", str(right), interpret=True,
                                   problem=get_drill("lg/easy/1_scale").to_request()))
    assert result.status == "passed", result.error
    assert [c.name for c in result.cases] == ["example", "functional 1", "functional 2", "functional 3"]
    # The helpers went with the runs as copies (the remote here shares this disk: check the list).
    sent = ssh_target.map_request({"drill": get_drill("lg/easy/1_scale").to_request(), "solution": str(right)})[1]
    assert str((tmp_path / "leetgpu" / "challenges" / "core" / "challenge_base.py").resolve()) in sent.files
    assert not any("/medium/" in key or "/hard/" in key for key in sent.files)
    sent = ssh_target.map_request({"drill": get_drill("gm/practice/scale_py").to_request(),
                                   "solution": str(folder / "submission.py")})[1]
    assert str((folder.parent / "utils.py").resolve()) in sent.files
    assert not any("/sum_py/" in key for key in sent.files)              # other problems stay home
    sent = ssh_target.map_request({"drill": get_drill("vector_add").to_request(), "solution": str(right)})[1]
    assert {Path(key).parent.name for key in sent.files} == {"vector_add", right.parent.name}
