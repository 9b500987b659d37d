"""Tile shapes of the reference CUDA matmul (kernels/matmul/solution_cuda.cu) on a GPU.

The solution's knobs (MM_BM, MM_BN, MM_BK, MM_STAGES, MM_MINB, MM_GROUP_M) are compile-time
macros. Each variant is built with torch.utils.cpp_extension.load_inline (in parallel), checked
against torch.matmul, and timed with triton.testing.do_bench (its L2 flush between calls)
beside torch.matmul (cuBLAS) in the same process, shape by shape.

    python bench/cuda_matmul_tiles.py [--jobs 12] [--out results.json]

Prints one line per variant and shape: TFLOP/s and the ratio to cuBLAS.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "kernels" / "matmul" / "solution_cuda.cu"
DECL = "torch::Tensor matmul(torch::Tensor a, torch::Tensor b);"
# (BM, BN, BK, STAGES, MINB, GROUP_M); the first is the shipped default.
VARIANTS = [(256, 128, 32, 5, 1, 8), (256, 128, 64, 3, 1, 8), (256, 128, 64, 4, 1, 8),
            (128, 256, 32, 5, 1, 8), (128, 256, 64, 3, 1, 8), (128, 256, 64, 4, 1, 8),
            (256, 128, 32, 4, 1, 8), (256, 128, 32, 6, 1, 8), (128, 128, 32, 4, 2, 8),
            (128, 128, 64, 3, 2, 8), (256, 128, 32, 5, 1, 16), (128, 256, 32, 4, 1, 8)]
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 2048, 2048), (4096, 11008, 4096)]


def _name(v) -> str:
    return "mm_" + "_".join(map(str, v))


def _flags(v) -> list[str]:
    bm, bn, bk, stages, minb, group = v
    return ["-O3", "-lineinfo", f"-DMM_BM={bm}", f"-DMM_BN={bn}", f"-DMM_BK={bk}", f"-DMM_STAGES={stages}",
            f"-DMM_MINB={minb}", f"-DMM_GROUP_M={group}"]


def _load(v, root: Path):
    import torch
    from torch.utils.cpp_extension import load_inline

    folder = root / _name(v)
    folder.mkdir(parents=True, exist_ok=True)
    abi = int(bool(torch._C._GLIBCXX_USE_CXX11_ABI))
    return load_inline(_name(v), cpp_sources=[DECL], cuda_sources=[SOURCE.read_text()], functions=["matmul"],
                       extra_cuda_cflags=_flags(v) + [f"-D_GLIBCXX_USE_CXX11_ABI={abi}"],
                       build_directory=str(folder), verbose=False)


def _build(args) -> tuple[tuple, float, str | None]:
    v, root = args
    started = time.time()
    try:
        _load(v, Path(root))
        return v, time.time() - started, None
    except Exception as exc:  # noqa: BLE001 - a variant that does not compile is reported
        return v, time.time() - started, str(exc).strip().splitlines()[-1][:300]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=12)
    parser.add_argument("--out", default=None)
    parser.add_argument("--variants", default=None, help="indices into VARIANTS, comma-separated")
    args = parser.parse_args()
    import torch
    from triton.testing import do_bench

    variants = [VARIANTS[int(i)] for i in args.variants.split(",")] if args.variants else VARIANTS
    root = Path(os.environ.get("MM_BUILD_ROOT") or tempfile.mkdtemp(prefix="mm_tiles_"))
    started = time.time()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        built = list(pool.map(_build, [(v, str(root)) for v in variants]))
    print(f"built {len(built)} variants in {time.time() - started:.0f} s", flush=True)
    results = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "variants": []}
    for v, seconds, error in built:
        entry = {"variant": dict(zip(("BM", "BN", "BK", "STAGES", "MINB", "GROUP_M"), v)),
                 "build_s": round(seconds, 1), "error": error, "shapes": []}
        results["variants"].append(entry)
        if error:
            print(f"{_name(v)}: build failed: {error}", flush=True)
            continue
        fn = _load(v, root).matmul
        for m, n, k in SHAPES:
            for dtype in (torch.float16, torch.bfloat16):
                if dtype is torch.bfloat16 and (m, n, k) != (4096, 4096, 4096):
                    continue
                a = torch.randn(m, k, device="cuda", dtype=dtype)
                b = torch.randn(k, n, device="cuda", dtype=dtype)
                want = torch.matmul(a.float(), b.float())
                got = fn(a, b).float()
                err = ((got - want).abs().max() / want.abs().max()).item()
                ours = do_bench(lambda: fn(a, b), warmup=50, rep=300)
                cublas = do_bench(lambda: torch.matmul(a, b), warmup=50, rep=300)
                ours2 = do_bench(lambda: fn(a, b), warmup=10, rep=300)   # both twice, interleaved:
                cublas = min(cublas, do_bench(lambda: torch.matmul(a, b), warmup=10, rep=300))   # best of each
                ms = min(ours, ours2)
                tflops = 2 * m * n * k / (ms * 1e-3) / 1e12
                row = {"shape": [m, n, k], "dtype": str(dtype).replace("torch.", ""), "ms": ms,
                       "cublas_ms": cublas, "tflops": tflops, "vs_cublas": cublas / ms, "max_rel_err": err}
                entry["shapes"].append(row)
                print(f"{_name(v)} {m}x{n}x{k} {row['dtype']}: {tflops:.0f} TFLOP/s, {cublas / ms:.3f}x cuBLAS "
                      f"(err {err:.1e})", flush=True)
                del a, b, want, got
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
