"""What torch.compile runs for a drill's baseline at a shape: Inductor's Triton source and the
launch config its autotuner kept (#21).

    PYTHONPATH=. python3 bench/inductor_code.py --out DIR softmax_backward:4096x16384 swiglu:4096x8192 ...

bench/peers.py found torch.compile 2-8% ahead of some reference solutions at large memory-bound
sizes (bench/results/peers_h200/README.md). Timing variants of our own kernels only searches
the space we already thought of; this shows what Inductor does there instead (loop structure,
block sizes, warps, eviction hints), so a tuning run can try it. Writes DIR/<drill>_<shape>_<dtype>.py
per point: a header with every kernel's kept config, then the generated source. Needs a GPU.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from long_rows_tuning import load, point_inputs  # noqa: E402


def kept_configs(seen: set) -> list[str]:
    """One line per Inductor kernel loaded since the last call (module ids in `seen`): its name
    and the config(s) left after autotuning."""
    from torch._inductor.codecache import PyCodeCache

    lines = []
    for module in list(getattr(PyCodeCache, "modules", [])):
        if id(module) in seen:
            continue
        seen.add(id(module))
        for name, value in vars(module).items():
            launchers = getattr(value, "launchers", None)
            if launchers is None or not hasattr(value, "fn"):
                continue
            for launcher in launchers:
                cfg = getattr(launcher, "config", None)
                if cfg is not None:
                    lines.append(f"{name}: {dict(cfg.kwargs)} num_warps={cfg.num_warps} num_stages={cfg.num_stages}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--device", default="cuda", help="cpu: Inductor's C++ instead (a smoke test)")
    parser.add_argument("points", nargs="+", help="drill:MxN[xK]")
    args = parser.parse_args()
    import torch
    from torch._inductor.utils import run_and_get_code

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    seen: set = set()
    for point in args.points:
        drill, shape_s = point.split(":")
        spec = load(drill, "spec")
        inputs, _ = point_inputs(spec, [int(v) for v in shape_s.split("x")], args.dtype, args.device)
        torch._dynamo.reset()
        compiled = torch.compile(spec.baseline, dynamic=False)
        try:
            _, sources = run_and_get_code(compiled, *inputs)
            header = kept_configs(seen)
        except Exception as exc:  # noqa: BLE001 - record and go on to the next point
            sources, header = [], [f"failed: {type(exc).__name__}: {exc}"]
        text = "\n".join("# " + line for line in header) + "\n\n" + "\n\n".join(sources)
        (out / f"{drill}_{shape_s}_{args.dtype}.py").write_text(text)
        print(point, *header, sep="\n  ", flush=True)
        del inputs
    return 0


if __name__ == "__main__":
    sys.exit(main())
