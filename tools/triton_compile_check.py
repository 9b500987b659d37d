"""Compile a drill's Triton solution for a GPU target without a GPU (a developer tool).

The GPU machine's Triton (3.6 on the H100 we measure on) can reject a kernel that the
local Triton's interpreter runs happily: a constexpr-specialised argument (an int equal to
1 becomes a Python int, so `M.to(...)` fails), a layout pass that cannot handle a tile.
This runs every case of a drill through the solution on CPU tensors with Triton's launch
replaced by ahead-of-time compilation for `--arch` (default sm_90), so those errors show
up here, with every autotune config compiled. Nothing is launched and no output is
checked: it answers only "does every kernel compile, for the arguments the cases pass".

    /path/to/venv-with-that-triton/bin/python tools/triton_compile_check.py DRILL [SOLUTION]

Run it with a Python whose Triton is the version to check (e.g. a venv with
`pip install triton==3.6.0 torch==2.13.0 pyyaml`), from the repository root. A solution
that branches on `x.device.type == "cuda"` takes its CPU branch here: those GPU-only
paths are not checked.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _fake_gpu(arch: int) -> None:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.runtime import jit
    from triton.runtime.driver import driver

    from triton.backends.nvidia.driver import CudaDriver

    class FakeDriver(CudaDriver):  # only what the compile path asks for; no CUDA initialisation
        def __init__(self):
            self.utils = None

        def get_current_target(self):
            return GPUTarget("cuda", arch, 32)

        def get_current_device(self):
            return 0

        def get_current_stream(self, device=None):
            return 0

        def get_active_torch_device(self):
            import torch
            return torch.device("cpu")

        def get_device_interface(self):
            import torch
            return torch.cuda

        def get_benchmarker(self):
            return lambda *a, **k: [0.0, 0.0, 0.0]

    driver.set_active(FakeDriver())
    original_run = jit.JITFunction.run

    def compile_only(self, *args, grid, warmup, **kwargs):
        return original_run(self, *args, grid=grid, warmup=True, **kwargs)

    jit.JITFunction.run = compile_only

    from triton.runtime import autotuner

    def compile_every_config(self, *args, **kwargs):
        # Every config is compiled (none is timed); pre-hooks, which touch real buffers, are
        # not run: compiling does not need them.
        for config in self.configs:
            self.fn.run(*args, **{**kwargs, **config.all_kwargs()})
        return None

    autotuner.Autotuner.run = compile_every_config


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("drill")
    parser.add_argument("solution", nargs="?")
    parser.add_argument("--arch", type=int, default=90)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import triton
    import torch

    _fake_gpu(args.arch)
    spec_path = ROOT / "kernels" / args.drill / "spec.py"
    spec_mod = importlib.util.spec_from_file_location(f"spec_{args.drill}", spec_path)
    spec = importlib.util.module_from_spec(spec_mod)
    spec_mod.loader.exec_module(spec)
    import yaml
    drill = yaml.safe_load((ROOT / "kernels" / args.drill / "drill.yaml").read_text())
    solution = Path(args.solution) if args.solution else ROOT / "kernels" / args.drill / "solution.py"
    sol_spec = importlib.util.spec_from_file_location("solution_under_check", solution)
    sol = importlib.util.module_from_spec(sol_spec)
    sol_spec.loader.exec_module(sol)
    entry = getattr(sol, drill.get("entry") or drill.get("function") or args.drill)
    cases = list(drill.get("cases") or []) + list(drill.get("gpu_cases") or [])
    failures = 0
    print(f"Triton {triton.__version__}, target sm_{args.arch}: {args.drill}, {len(cases)} cases")
    for case in cases:
        name = case.get("name")
        try:
            inputs = spec.make_inputs(case, torch.Generator().manual_seed(0), "cpu") \
                if spec.make_inputs.__code__.co_argcount >= 3 else spec.make_inputs(case, torch.Generator().manual_seed(0))
            if isinstance(inputs, dict):
                entry(**inputs)
            else:
                entry(*inputs)
            print(f"  ok    {name}")
        except Exception as exc:  # noqa: BLE001 - every failure is the report
            failures += 1
            text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            cause = exc.__cause__ or exc.__context__
            while cause is not None:   # a nested @triton.jit function's own error
                text += "\n  caused by: " + "".join(traceback.format_exception_only(type(cause), cause)).strip()
                cause = cause.__cause__ or cause.__context__
            print(f"  FAIL  {name}: {text[-2500:] if failures == 1 else text.splitlines()[-1][:300]}")
    print("all compile" if not failures else f"{failures} case(s) failed to compile")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
