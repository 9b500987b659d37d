"""Where the weight-only matmul drills switch from the fused kernel to dequantize-then-GEMM (#21).

    python bench/wo_gemm_threshold.py [--rep-ms 30]

int4_wo_matmul and int8_wo_matmul (kernels/*/solution.py) run M >= GEMM_MIN_M (fp16/bf16)
as: dequantize W once into x's dtype, then the matmul drill's reference GEMM. This times,
for M from 64 to 4096 at two Llama layer shapes, bf16, the solution with the fused kernel
forced (GEMM_MIN_M huge), with the GEMM path forced (GEMM_MIN_M = 0), and
torch.compile(spec.baseline) (Inductor: its own dequantize, then cuBLAS), each output
checked against spec.reference with the drill's tolerance. Timing: the engine's protocol
(studio.drills.harness.timing.time_baseline: L2 flushed by reading 256 MiB, launch included),
median of the samples. Needs a CUDA GPU.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rep-ms", type=float, default=30.0)
    parser.add_argument("--ms", default="64,128,256,512,1024,2048,4096")
    args = parser.parse_args()
    import torch

    from studio.drills.catalog import get_drill
    from studio.drills.harness import timing

    print("| drill | M x N x K | fused us | dequant+GEMM us | torch.compile us | faster path |")
    print("|---|---|---|---|---|---|")
    for drill_id in ("int4_wo_matmul", "int8_wo_matmul"):
        drill = get_drill(drill_id)
        spec = load(f"_s_{drill_id}", drill.spec_module)
        sol = load(f"_sol_{drill_id}", drill.solution)
        entry = getattr(sol, drill.entry)
        shipped = sol.GEMM_MIN_M
        compiled = torch.compile(spec.baseline, dynamic=False)
        for n, k in ((4096, 4096), (14336, 4096)):
            for m in (int(v) for v in args.ms.split(",")):
                case = {"name": "t", "shape": [m, n, k], "dtype": "bfloat16", "fill": "randn", "layout": "contiguous"}
                inputs = spec.make_inputs(case, torch.Generator().manual_seed(0), torch.device("cuda"))
                ref = spec.reference(*inputs)
                tol = drill.tolerances["bfloat16"]
                row = []
                for gemm_min in (1 << 30, 0, None):
                    if gemm_min is None:
                        fn = lambda: compiled(*inputs)  # noqa: E731
                    else:
                        sol.GEMM_MIN_M = gemm_min
                        fn = lambda: entry(*inputs)  # noqa: E731
                    out = fn()
                    ok = bool(torch.isclose(out.double(), ref.double(), atol=tol.atol, rtol=tol.rtol).all())
                    us = timing.quantiles(timing.time_baseline(fn, 10, args.rep_ms))[0] * 1e3
                    row.append(f"{us:.1f}" + ("" if ok else " (WRONG)"))
                sol.GEMM_MIN_M = shipped
                faster = "GEMM" if float(row[1].split()[0]) < float(row[0].split()[0]) else "fused"
                print(f"| {drill_id} | {m}x{n}x{k} | {row[0]} | {row[1]} | {row[2]} | {faster} |", flush=True)
                torch._dynamo.reset()
                compiled = torch.compile(spec.baseline, dynamic=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
