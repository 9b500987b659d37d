"""The Hopper (TMA + wgmma) path of the reference CUDA matmul, checked and timed on a GPU.

kernels/matmul/solution_cuda.cu takes its sm_90a path (mm_wgmma_kernel) on an H100/H200
when the extension is built for sm_90a (TORCH_CUDA_ARCH_LIST=9.0a, what the app's builder
picks on Hopper). This script builds the file as the app does (load_inline, 9.0a) in two
variants of the row-major-B descriptor strides (MM_H_B_LBO / MM_H_B_SBO: the shipped
choice and the two swapped, as a control that the check can fail), checks both B layouts
(row-major B and B = W.t()) and both dtypes on aligned and ragged shapes against a float32
product, then times the shipped variant against torch.matmul (cuBLAS) and against the
file's own mma.sync path (MM_PATH=mma, in a second process) with triton.testing.do_bench.

    TORCH_CUDA_ARCH_LIST=9.0a python bench/cuda_matmul_wgmma.py [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "kernels" / "matmul" / "solution_cuda.cu"
DECL = "torch::Tensor matmul(torch::Tensor a, torch::Tensor b);"
VARIANTS = {"shipped": [], "swapped_b_strides": ["-DMM_H_B_LBO=1024", "-DMM_H_B_SBO=8192"]}
CHECK_SHAPES = [(4096, 4096, 4096), (1000, 1000, 1000), (4000, 3000, 1032), (777, 2056, 4104), (8192, 512, 256)]
TIME_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 2048, 2048), (4096, 11008, 4096), (16384, 4096, 4096)]


def _load(name: str, root: Path):
    import torch
    from torch.utils.cpp_extension import load_inline

    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    abi = int(bool(torch._C._GLIBCXX_USE_CXX11_ABI))
    return load_inline(f"mmwg_{name}", cpp_sources=[DECL], cuda_sources=[SOURCE.read_text()], functions=["matmul"],
                       extra_cuda_cflags=["-O3", "-std=c++17", f"-D_GLIBCXX_USE_CXX11_ABI={abi}"] + VARIANTS[name],
                       build_directory=str(folder), verbose=False)


def _build(args):
    name, root = args
    started = time.time()
    try:
        _load(name, Path(root))
        return name, time.time() - started, None
    except Exception as exc:  # noqa: BLE001 - a variant that does not compile is reported
        return name, time.time() - started, str(exc)[-3000:]


def _operands(m, n, k, dtype, layout, torch):
    a = torch.randn(m, k, device="cuda", dtype=dtype)
    if layout == "row":
        b = torch.randn(k, n, device="cuda", dtype=dtype)
    else:  # B = W.t() of an nn.Linear weight W [N][K]
        b = torch.randn(n, k, device="cuda", dtype=dtype).t()
    return a, b


def check(fn, torch) -> list[dict]:
    rows = []
    for m, n, k in CHECK_SHAPES:
        for dtype in (torch.float16, torch.bfloat16):
            for layout in ("row", "wt"):
                a, b = _operands(m, n, k, dtype, layout, torch)
                want = a.float() @ b.float()
                got = fn(a, b)
                torch.cuda.synchronize()
                err = ((got.float() - want).abs().max() / want.abs().max().clamp_min(1e-6)).item()
                ok = err < (2e-2 if dtype is torch.bfloat16 else 5e-3)
                rows.append({"shape": [m, n, k], "dtype": str(dtype)[6:], "b": layout, "rel_err": err, "ok": ok})
    return rows


def timing(fn, torch, shapes) -> list[dict]:
    from triton.testing import do_bench

    rows = []
    for m, n, k in shapes:
        for dtype in (torch.float16, torch.bfloat16):
            if dtype is torch.bfloat16 and (m, n, k) != (4096, 4096, 4096):
                continue
            for layout in ("row", "wt"):
                if layout == "wt" and (m, n, k) != (4096, 4096, 4096):
                    continue
                a, b = _operands(m, n, k, dtype, layout, torch)
                ours, cublas = [], []
                for _ in range(3):  # interleaved, best of each
                    ours.append(do_bench(lambda: fn(a, b), warmup=25, rep=200))
                    cublas.append(do_bench(lambda: torch.matmul(a, b), warmup=25, rep=200))
                ms, cms = min(ours), min(cublas)
                row = {"shape": [m, n, k], "dtype": str(dtype)[6:], "b": layout, "ms": ms, "cublas_ms": cms,
                       "tflops": 2 * m * n * k / (ms * 1e-3) / 1e12, "cublas_tflops": 2 * m * n * k / (cms * 1e-3) / 1e12,
                       "vs_cublas": cms / ms}
                rows.append(row)
                print(f"  {m}x{n}x{k} {row['dtype']} B={layout}: {row['tflops']:.0f} TFLOP/s, cuBLAS "
                      f"{row['cublas_tflops']:.0f}, {row['vs_cublas']:.3f}x", flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=None)
    parser.add_argument("--only-time", default=None, help="(internal) time this built variant in this process")
    parser.add_argument("--root", default=None)
    parser.add_argument("--build-only", action="store_true", help="build the variants (into MM_BUILD_ROOT) and stop")
    args = parser.parse_args()
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0a")
    import torch

    if args.only_time:
        fn = _load(args.only_time, Path(args.root)).matmul
        print(json.dumps({"timing": timing(fn, torch, TIME_SHAPES[:1] + TIME_SHAPES[3:4])}))
        return 0
    root = Path(os.environ.get("MM_BUILD_ROOT") or tempfile.mkdtemp(prefix="mm_wgmma_"))
    started = time.time()
    with ProcessPoolExecutor(max_workers=len(VARIANTS)) as pool:
        built = list(pool.map(_build, [(name, str(root)) for name in VARIANTS]))
    print(f"built {len(built)} variants in {time.time() - started:.0f} s", flush=True)
    if args.build_only:
        for name, seconds, error in built:
            print(f"{name}: {seconds:.0f} s" + (f", FAILED:\n{error}" if error else ""), flush=True)
        return 0
    results = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
               "arch_list": os.environ["TORCH_CUDA_ARCH_LIST"], "variants": {}}
    for name, seconds, error in built:
        entry = results["variants"][name] = {"build_s": round(seconds, 1), "error": error}
        if error:
            print(f"{name}: build failed:\n{error}", flush=True)
            continue
        fn = _load(name, root).matmul
        entry["check"] = check(fn, torch)
        bad = [r for r in entry["check"] if not r["ok"]]
        print(f"{name}: {len(entry['check']) - len(bad)}/{len(entry['check'])} checks pass"
              + "".join(f"\n  FAIL {r}" for r in bad), flush=True)
        if name == "shipped" and not bad:
            print("timing the shipped variant (sm_90a path):", flush=True)
            entry["timing"] = timing(fn, torch, TIME_SHAPES)
    if not results["variants"]["shipped"].get("error"):
        print("timing the mma.sync path of the same build (MM_PATH=mma):", flush=True)
        env = dict(os.environ, MM_PATH="mma")
        out = subprocess.run([sys.executable, __file__, "--only-time", "shipped", "--root", str(root)], env=env,
                             capture_output=True, text=True)
        print(out.stdout[-3000:], out.stderr[-2000:], flush=True)
        try:
            results["mma_sync_path"] = json.loads(out.stdout.strip().splitlines()[-1])["timing"]
        except (ValueError, IndexError):
            results["mma_sync_path"] = None
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
