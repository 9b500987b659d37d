"""The pieces that keep the judge apart from the judged code, one at a time, in-process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest
import torch

from studio.drills.harness import channel, sandbox, timing
from studio.drills.harness.checks import check_meta, guarded_empty
from studio.drills.harness.honesty import (
    DispatchSnapshot, LaunchCounter, OpHooks, Provenance, foreign_threads, storage_key, watching,
)

CPU = torch.device("cpu")


# ----- the channel ---------------------------------------------------------------------------
def test_replies_are_json_frames_and_garbage_is_a_protocol_error():
    reader = channel.FrameReader()
    frame = channel.HEADER.pack(9) + b'{"a": 1}\n'
    assert reader.feed(frame[:5]) == [] and reader.feed(frame[5:]) == [{"a": 1}]
    with pytest.raises(channel.ProtocolError):
        channel.FrameReader().feed(channel.HEADER.pack(4) + b"\x80abc")
    with pytest.raises(channel.ProtocolError):
        channel.FrameReader().feed(channel.HEADER.pack(2) + b"[]")
    with pytest.raises(channel.ProtocolError, match="byte reply"):
        channel.FrameReader().feed(channel.HEADER.pack(channel.MAX_REPLY_BYTES + 1))


def test_a_pickled_reply_is_never_unpickled():
    import pickle

    class Boom:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    payload = pickle.dumps(Boom())
    with pytest.raises(channel.ProtocolError):
        channel.FrameReader().feed(channel.HEADER.pack(len(payload)) + payload)


# ----- what the judge accepts as an output -----------------------------------------------------
@pytest.mark.parametrize("meta, message", [
    ({"type": "NoneType"}, "returned NoneType"),
    ({"type": "Sneaky", "subclass": True}, "torch.Tensor subclass (Sneaky)"),
    ({"type": "Tensor", "shape": [3], "dtype": "float32", "device": "cpu", "contiguous": True},
     "returned shape [3], expected [3, 4]"),
    ({"type": "Tensor", "shape": [3, 4], "dtype": "float16", "device": "cpu", "contiguous": True},
     "returned dtype float16, expected float32"),
    ({"type": "Tensor", "shape": [3, 4], "dtype": "float32", "device": "cuda", "contiguous": True},
     "returned a tensor on cuda"),
    ({"type": "Tensor", "shape": [3, 4], "dtype": "float32", "device": "cpu", "contiguous": False},
     "non-contiguous"),
])
def test_output_descriptions_are_checked(meta, message):
    assert message in check_meta(meta, [3, 4], torch.float32, CPU)


def test_a_plain_output_description_passes():
    meta = {"type": "Tensor", "shape": [3, 4], "dtype": "float32", "device": "cpu", "contiguous": True}
    assert check_meta(meta, [3, 4], torch.float32, CPU) is None


# ----- timing cross-checks --------------------------------------------------------------------
def test_every_timed_output_must_match_the_verified_one_for_its_input_set():
    expected = [(1.0, 0.5, 100.0, 20.0), (2.0, 0.25, 100.0, 20.0)]
    good = [[1.0, 0.5], [2.0, 0.25], [1.0 + 1e-3, 0.5], [2.0, 0.25]]   # rounding of 100
    assert timing.checksums_match(good, expected, 4) is None
    stale = [[1.0, 0.5], [1.0, 0.5], [1.0, 0.5], [1.0, 0.5]]      # set 0's answer every time
    assert "timed call 2 of 4" in timing.checksums_match(stale, expected, 4)
    assert "every timed call" in timing.checksums_match(good[:3], expected, 4)
    assert timing.checksums_match([[1.0, 0.5 + 0.01]], expected, 1) is not None
    nan = float("nan")
    assert timing.checksums_match([[None, None]], [(nan, nan, nan, nan)], 1) is None


def test_times_the_judge_did_not_observe_are_invalid():
    peaks = {"copy_gbps": 3000.0, "matmul_tflops": 750.0}
    honest = {"gbps": 2800.0, "tflops": None}
    assert timing.judge_timing(0.001, 0.050, honest, peaks) is None
    assert timing.judge_timing(0.008, 0.003, honest, peaks) is None    # tiny call, sync jitter
    assert timing.judge_timing(0.024, 0.051, honest, peaks) is None    # seen on honest code
    side_stream = timing.judge_timing(0.048, 0.002, honest, peaks)
    assert "work escaped the timed region" in side_stream
    assert timing.judge_timing(0.045, 0.050, honest, peaks) is not None
    assert "above the device's measured copy bandwidth" in timing.judge_timing(
        0.0, 0.01, {"gbps": 91000.0}, peaks)
    assert "matmul throughput" in timing.judge_timing(0.0, 0.01, {"gbps": 10.0, "tflops": 2000.0}, peaks)


def test_the_judges_checksum_is_the_timing_loops():
    from studio.drills.harness.timed_loop import TimedLoop

    out = torch.randn(37, 11)
    loop = TimedLoop.__new__(TimedLoop)          # the CUDA parts are not needed for this
    loop._sum, loop._reshape = torch._C.TensorBase.sum, torch._C.TensorBase.reshape
    loop._getitem, loop._stack = torch._C.TensorBase.__getitem__, torch.stack
    loop._float64 = torch.float64
    assert tuple(loop.checksum(out).tolist()) == timing.checksum(out)[:2]


def test_float8_outputs_are_summed_in_float32():
    """CUDA has no sum or abs for float8 (the fp8_quant drill's timing once died with "abs_cuda
    not implemented for 'Float8_e4m3fn'" on the H200): both checksums widen first, exactly."""
    from studio.drills.harness.timed_loop import FLOAT8, TimedLoop

    def cuda_like_sum(t, dtype=None):
        if t.dtype in FLOAT8:
            raise NotImplementedError(f"sum not implemented for {t.dtype}")
        return torch._C.TensorBase.sum(t, dtype=dtype)

    out = torch.randn(37, 11).to(torch.float8_e4m3fn)
    loop = TimedLoop.__new__(TimedLoop)
    loop._sum, loop._reshape = cuda_like_sum, torch._C.TensorBase.reshape
    loop._getitem, loop._stack = torch._C.TensorBase.__getitem__, torch.stack
    loop._float64, loop._float32, loop._to = torch.float64, torch.float32, torch._C.TensorBase.to
    assert tuple(loop.checksum(out).tolist()) == timing.checksum(out.float())[:2]
    assert timing.checksum(out) == timing.checksum(out.float())


def test_the_baseline_times_its_own_copies_of_the_inputs():
    """fused_adamw's baseline (torch's fused AdamW, in place) once rewrote the input set
    shared with the worker: every timed call of the solution then disagreed with its checked
    output (H200). The copies keep each layout, gaps included; a broadcast input is kept."""
    base = torch.randn(4, 10)
    gapped = base[:, :7]                     # rows 10 apart, 7 used
    broadcast = torch.randn(1, 5).expand(3, 5)
    args = [base, gapped, broadcast, 3, 0.5]
    snapshot = base.clone()
    copies = timing.private_inputs(args)
    assert copies[1].stride() == gapped.stride() and torch.equal(copies[1], gapped)
    assert copies[0].data_ptr() != base.data_ptr() and copies[1].data_ptr() != base.data_ptr()
    assert copies[2] is broadcast and copies[3:] == [3, 0.5]
    copies[0].add_(1.0)
    copies[1].add_(1.0)
    assert torch.equal(base, snapshot) and not torch.equal(copies[0], base)
    overlapping = torch.arange(10.0).as_strided((4, 3), (2, 1))       # rows share elements
    (twin,) = timing.private_inputs([overlapping])
    assert torch.equal(twin, overlapping) and twin.data_ptr() != overlapping.data_ptr()


def test_each_timed_call_gets_its_input_sets_scalars():
    """A scalar that differs between input sets (dropout's seed) is part of the set: with set
    0's seed kept for every call, set 1's output was checked against set 1's answer and
    failed (dropout on the H200, every benchmark point)."""
    from studio.drills.harness.timed_loop import TimedLoop

    loop = TimedLoop.__new__(TimedLoop)
    loop._copy, loop._flush = torch._C.TensorBase.copy_, lambda: None
    sources = [[torch.zeros(3), 0.1, 11], [torch.ones(3), 0.1, 22]]
    work = [sources[0][0].clone(), 0.1, 11]
    loop._prepare(work, sources[1], [0])
    assert work[2] == 22 and torch.equal(work[0], torch.ones(3))
    loop._prepare(work, sources[0], [0])
    assert work[2] == 11 and torch.equal(work[0], torch.zeros(3))


# ----- honesty observations ---------------------------------------------------------------------
def test_dispatcher_hooks_see_other_threads_disabled_overrides_and_inference_mode():
    hooks = OpHooks({"log_softmax"})
    try:
        hooks.armed = True
        x = torch.randn(3, 5)
        worker = threading.Thread(target=lambda: torch.log_softmax(x, -1), name="sneaky")
        worker.start()
        worker.join()
        assert hooks.seen == {"log_softmax": "sneaky"}
        hooks.seen.clear()
        with torch.inference_mode(), torch._C.DisableTorchFunction():
            result = torch.ops.aten._log_softmax(x, -1, False)
        assert "log_softmax" in hooks.seen
        assert torch.allclose(result, x - x.logsumexp(-1, keepdim=True))
    finally:
        hooks._library._destroy()


def test_foreign_threads_are_named():
    known = set(sys._current_frames())
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, name="helper")
    thread.start()
    try:
        assert foreign_threads(known) == ["helper"]
    finally:
        stop.set()
        thread.join()
    assert foreign_threads(known) == []


def test_a_re_registered_op_is_tampering():
    snapshot = DispatchSnapshot(("mul",))
    assert snapshot.changed() == []
    library = torch.library.Library("aten", "IMPL")
    try:
        library.impl("mul.Tensor", lambda a, b: a, "CPU")
        assert snapshot.changed() == ["mul"]
    finally:
        library._destroy()


def _launch_history(before: torch.Tensor, after: torch.Tensor, out: torch.Tensor) -> Provenance:
    provenance = Provenance()
    provenance.before_launch(storage_key(out), before)
    provenance.after_launch(storage_key(out), before, after)
    return provenance


def test_provenance_accepts_an_output_written_only_by_kernels():
    buffer = guarded_empty((4,), (1,), torch.float32, CPU, "out")
    initial = buffer.raw.clone()
    buffer.view.copy_(torch.arange(4.0))            # what a kernel wrote
    written = buffer.raw.clone()
    provenance = _launch_history(initial, written, buffer.view)
    assert provenance.verdict(buffer.view, {storage_key(buffer.view): initial}) is None


@pytest.mark.parametrize("tamper, message", [
    ("after", "after the solution's last Triton kernel"),
    ("before", "outside the solution's Triton kernels"),
    ("never", "never wrote"),
    ("unknown", "not allocated during the call"),
    ("unlaunched", "no Triton kernel was given"),
])
def test_provenance_catches_writes_outside_the_kernels(tamper, message):
    buffer = guarded_empty((4,), (1,), torch.float32, CPU, "out")
    initial = buffer.raw.clone()
    if tamper == "before":
        buffer.view.fill_(1.0)
    before = buffer.raw.clone()
    if tamper != "never":
        buffer.view.copy_(torch.arange(4.0))
    after = buffer.raw.clone()
    if tamper == "after":
        buffer.view.mul_(2.0)
    provenance = Provenance() if tamper == "unlaunched" else _launch_history(before, after, buffer.view)
    allocated = {} if tamper == "unknown" else {storage_key(buffer.view): initial}
    assert message in provenance.verdict(buffer.view, allocated)


def test_a_second_launch_must_start_where_the_first_left_off():
    buffer = guarded_empty((4,), (1,), torch.float32, CPU, "out")
    initial, key = buffer.raw.clone(), storage_key(buffer.view)
    provenance = Provenance()
    buffer.view.fill_(1.0)
    provenance.after_launch(key, initial, buffer.raw.clone())          # kernel 1 wrote ones
    buffer.view.fill_(5.0)                                              # torch, in between
    provenance.before_launch(key, buffer.raw.clone())
    provenance.after_launch(key, buffer.raw.clone(), buffer.raw.clone())
    assert "outside the solution's Triton kernels" in provenance.verdict(buffer.view, {key: initial})


def test_autotuning_launches_are_followed_without_copies():
    buffer = guarded_empty((4,), (1,), torch.float32, CPU, "out")
    initial, key = buffer.raw.clone(), storage_key(buffer.view)
    provenance = Provenance()
    provenance.untracked_launch(key)                                    # benchmarking runs
    buffer.view.fill_(2.0)
    provenance.before_launch(key, buffer.raw.clone())                   # the real launch
    before = buffer.raw.clone()
    buffer.view.fill_(3.0)
    provenance.after_launch(key, before, buffer.raw.clone())
    assert provenance.verdict(buffer.view, {key: initial}) is None


def test_watching_records_allocation_state_for_provenance():
    with watching(LaunchCounter("/nowhere.py"), track=True) as watch:
        out = torch.empty(8)
    assert watch.allocations and watch.allocations[0][1].initial is not None
    assert "no Triton kernel was given" in watch.provenance_problem(out)



def test_allocations_by_torchs_own_runtime_are_not_guarded():
    """torch.compile(mode="reduce-overhead")'s CUDA-graph trees allocate a graph's inputs in
    their private pool and check it holds nothing else: a guarded copy made there broke a
    correct GPU MODE solution on the H200. The solution's own torch.empty stays guarded."""
    torch_dir = os.path.dirname(torch.__file__)

    import types

    def allocate_from(filename, module_name="submission", namespace=None):
        code = compile("def make():\n    return torch.empty(8), torch.zeros_like(torch.ones(3))\n",
                       filename, "exec").co_consts[0]
        make = types.FunctionType(code, namespace if namespace is not None
                                  else {"__name__": module_name, "torch": torch})
        with watching(LaunchCounter("/nowhere.py"), track=True) as watch:
            make()
        return [label for label, _ in watch.allocations]

    assert allocate_from("/home/u/submission.py") == ["torch.empty", "torch.ones", "torch.zeros_like"]
    import torch._inductor.cudagraph_trees as trees      # code of torch's own module, from its file
    assert allocate_from(trees.__file__, namespace=trees.__dict__) == []
    assert len(allocate_from(trees.__file__, module_name=trees.__name__)) == 3   # its name, not its module
    # a file name inside torch given to code of one's own, with or without a torch-like name
    assert len(allocate_from(os.path.join(torch_dir, "_inductor", "cudagraph_trees.py"))) == 3
    assert len(allocate_from(os.path.join(torch_dir, "fake.py"), module_name="torch.fake")) == 3
    # told by the file, not by a name the solution could give itself
    assert len(allocate_from("/home/u/submission.py", module_name="torch._inductor.x")) == 3
    assert len(allocate_from(torch_dir + "vision/fake.py")) == 3     # .../torchvision/, not torch/


# ----- containment --------------------------------------------------------------------------------
def test_descendants_and_their_memory_are_found_and_killed():
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import subprocess, sys, time
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        time.sleep(60)
    """)])
    try:
        deadline = time.monotonic() + 20
        while not sandbox.descendants(child.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        (grandchild,) = sandbox.descendants(child.pid)
        assert sandbox.tree_rss_bytes(child.pid) > sandbox.tree_rss_bytes(grandchild) > 0
        sandbox.kill_descendants(child.pid)
        assert _state(grandchild) in ("Z", None)       # dead (a zombie until its parent reaps)
    finally:
        child.kill()
        child.wait()


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


@pytest.mark.skipif(sandbox.landlock_abi() <= 0, reason="needs Landlock (Linux 5.13+)")
def test_landlock_leaves_only_the_allowed_folders_writable(tmp_path):
    allowed, other = tmp_path / "allowed", tmp_path / "other"
    allowed.mkdir()
    other.mkdir()
    code = textwrap.dedent(f"""
        from studio.drills.harness import sandbox
        print(sandbox.restrict_worker([{str(allowed)!r}]))
        open({str(allowed / 'ok.txt')!r}, "w").write("fine")
        try:
            open({str(other / 'no.txt')!r}, "w").write("nope")
            print("WROTE")
        except PermissionError:
            print("REFUSED")
        print(open({str(other / '..' / 'allowed' / 'ok.txt')!r}).read())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "Landlock ABI" in out.stdout and "REFUSED" in out.stdout and "fine" in out.stdout, out
    assert not (other / "no.txt").exists()
