"""The program ncu profiles: one benchmark point of a drill (or of a user's bench spec).

    python -m studio.drills.harness.profile_target --request FILE

Started by studio/drills/profiler.py under `ncu --profile-from-start off`: it builds the
point's inputs exactly as the bench does (same case, fill and layout), loads the side it is
asked for (the solution, or the torch baseline), calls it a few times to compile and
autotune outside the profiled range, checks the solution's output against the reference,
and then calls it once more between cudaProfilerStart and cudaProfilerStop (inside an NVTX
range named studio:solution or studio:baseline), so ncu sees that one call's kernels and
nothing else. What it learned (device, bytes model, the check) is written as JSON to the
request's `out` file; nothing is read from its stdout.

Profiling is not judging: the solution runs in this process without the judge's sandbox,
as the user's own code on their own machine; the verdict of a drill still comes only from
`studio-drill run`.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path
from typing import Any

WARMUP_CALLS = 3


def _write(path: str, payload: dict[str, Any]) -> None:
    Path(path).write_text(json.dumps(payload, default=str), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="studio.drills.harness.profile_target")
    parser.add_argument("--request", required=True)
    args = parser.parse_args(argv)
    request = json.loads(Path(args.request).read_text(encoding="utf-8"))
    out = request["out"]
    try:
        _write(out, run(request))
        return 0
    except _Refused as refused:
        _write(out, {"ok": False, "kind": refused.kind, "error": refused.message})
        return 3
    except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent as text
        _write(out, {"ok": False, "kind": "target_error", "error": f"{type(exc).__name__}: {exc}",
                     "traceback": traceback.format_exc()})
        return 3


class _Refused(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message


def run(request: dict[str, Any]) -> dict[str, Any]:
    import torch

    # "cpu" (tests only, with TRITON_INTERPRET=1): the same flow with the profiler calls skipped.
    on_cpu = request.get("device") == "cpu"
    if not on_cpu and not torch.cuda.is_available():
        raise _Refused("no_gpu", "torch sees no CUDA GPU in the profiling process "
                                 f"(torch {torch.__version__}, CUDA {torch.version.cuda})")
    device = torch.device("cpu" if on_cpu else "cuda")
    sync = (lambda: None) if on_cpu else torch.cuda.synchronize
    size, dtype_name = list(request["size"]), request["dtype"]
    case = {"name": f"profile {size} {dtype_name}", "shape": size, "dtype": dtype_name,
            "fill": "randn", "layout": "contiguous"}
    problem = _load_problem(request)
    gen = torch.Generator().manual_seed(int(request.get("seed") or 0))
    inputs = tuple(problem.make_inputs(case, gen, device))
    bytes_model = int(problem.bytes_moved(case))
    elem = torch.empty((), dtype=getattr(torch, dtype_name)).element_size()
    side = request["side"]
    if side == "solution":
        fn = _load_solution(request)
    else:
        fn = problem.baseline
    check = None
    for _ in range(1 if on_cpu else WARMUP_CALLS):   # compile, autotune: outside the profiled range
        out = fn(*inputs)
    sync()
    if side == "solution":
        check = _check(problem, inputs, out, request, torch)
    del out
    sync()
    if on_cpu:
        fn(*inputs)
    else:
        torch.cuda.profiler.start()
        torch.cuda.nvtx.range_push(f"studio:{side}")
        try:
            fn(*inputs)
            torch.cuda.synchronize()
        finally:
            torch.cuda.nvtx.range_pop()
            torch.cuda.profiler.stop()
    name = "cpu (Triton interpreter)" if on_cpu else torch.cuda.get_device_name()
    return {"ok": True, "side": side, "device": name, "bytes_model": bytes_model,
            "elem_bytes": elem, "check": check,
            "versions": {"torch": torch.__version__, "cuda": torch.version.cuda, "triton": _triton_version()}}


def _triton_version() -> str | None:
    try:
        import triton

        return triton.__version__
    except Exception:  # noqa: BLE001
        return None


def _load_problem(request: dict[str, Any]) -> Any:
    """The drill's spec.py, or a user's bench spec, answering make_inputs / bytes_moved / baseline."""
    if request.get("bench_spec"):
        from studio.drills.harness import bench_spec

        try:
            return bench_spec.load(request["bench_spec"])
        except bench_spec.SpecError as exc:
            raise _Refused("bad_spec", f"bench spec: {exc.message}") from None
    from studio.drills.harness.worker import import_file

    module = import_file("_studio_profile_spec", request["spec_module"])
    return module


def _load_solution(request: dict[str, Any]) -> Any:
    solution, entry = request["solution"], request["entry"]
    sys.path.insert(0, str(Path(solution).parent))
    if str(solution).endswith((".cu", ".cuh")):
        from studio.drills.harness.cuda_build import BuildFailed, CudaBuilder

        try:
            return CudaBuilder(solution, request["cuda_cache"]).build_file(entry, request.get("signature") or entry)
        except BuildFailed as failed:
            raise _Refused("build_failed", str(failed.info.get("message") if isinstance(failed.info, dict)
                                               else failed.info)) from None
    from studio.drills.harness.worker import import_file

    module = import_file("_studio_profile_solution", solution)
    fn = getattr(module, entry, None)
    if not callable(fn):
        raise _Refused("missing_entry", f"{Path(solution).name} defines no function `{entry}`")
    return fn


def _check(problem: Any, inputs: tuple, out: Any, request: dict[str, Any], torch: Any) -> dict[str, Any]:
    """The solution's output against the reference (a wrong kernel's profile says little)."""
    try:
        reference = problem.reference(*inputs)
        if not isinstance(out, torch.Tensor) or out.shape != reference.shape:
            return {"passed": False, "error": f"output {getattr(out, 'shape', type(out).__name__)} where the "
                                              f"reference is {tuple(reference.shape)}"}
        tolerances = request.get("tolerances") or getattr(problem, "tolerances", None) or {}
        tol = tolerances.get(request["dtype"]) or {"atol": 1e-2, "rtol": 1e-2}
        diff = (out.double() - reference.double()).abs()
        finite = torch.isfinite(reference.double())
        worst = float(diff[finite].max()) if bool(finite.any()) else 0.0
        passed = bool(torch.allclose(out.double(), reference.double(), atol=tol["atol"], rtol=tol["rtol"],
                                     equal_nan=True))
        return {"passed": passed, "max_abs_err": worst, "error": None if passed else
                f"output differs from the reference (max abs err {worst:.3g})"}
    except Exception as exc:  # noqa: BLE001 - the check is a note on the profile, not the verdict
        return {"passed": None, "error": f"could not check: {type(exc).__name__}: {exc}"}


if __name__ == "__main__":
    raise SystemExit(main())
