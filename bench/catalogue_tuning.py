"""Launch-shape sweep for the catalogue drills that fell short of copy bandwidth (GPU only).

    PYTHONPATH=. python3 bench/catalogue_tuning.py --out DIR [--budget-s 500] [--only a,b]

Times variants of the reference solutions' own kernels (kernels/<id>/solution.py) with the
drill engine's timing (triton.testing.do_bench, L2 flushed by a read before every call),
so the figures are comparable with `studio-drill run ... --bench`:

- bias_gelu: tile shape x warps, and the A&S erf against libdevice's erff;
- cross_entropy: BLOCK_V x warps of the new kernel, and the previous kernel (per-lane
  max, no alignment peeling, from git) at the same shapes;
- softmax_backward: fused rows against the persistent looped kernel (chunk, warps,
  in-flight byte budget) and the previous one-program-per-row looped kernel;
- int8_wo_matmul: the split-K decode kernel over BLOCK_N x BLOCK_K x SPLIT_K x stages,
  and GEMM configs at 4096^3 against cuBLAS and the torch baseline.

Each variant is checked against torch before it is timed. Kernels are compiled in parallel
processes first (Triton's disk cache), then timed one at a time. Writes DIR/tuning.json
(all rows) and prints the best variant per shape.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from concurrent import futures
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
START = time.monotonic()

BG_SHAPES = [(4096, 1024), (4096, 4096), (8192, 8192), (16384, 11008)]
CE_SHAPES = [(4096, 32000), (4096, 50257), (4096, 128256), (1024, 256000)]
SB_SHAPES = [(4096, 8192), (4096, 16384), (4096, 32768)]
I8_DECODE = [(1, 4096, 4096), (16, 4096, 4096), (1, 11008, 4096), (16, 14336, 4096),
             (64, 8192, 8192), (1, 28672, 8192), (16, 28672, 8192)]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_MODS: dict = {}


def solution(drill: str):
    if drill not in _MODS:
        _MODS[drill] = _load(f"sol_{drill}", REPO / "kernels" / drill / "solution.py")
    return _MODS[drill]


def previous(drill: str):
    """The solution as committed before this tuning round (git rev in PREVIOUS_REV)."""
    key = f"prev_{drill}"
    if key not in _MODS:
        path = REPO / ".tuneprev" / f"{drill}.py"     # carried to the device (no .git there)
        if not path.is_file():
            path.parent.mkdir(exist_ok=True)
            path.write_text(subprocess.run(["git", "show", f"{PREVIOUS_REV}:kernels/{drill}/solution.py"],
                               cwd=REPO, capture_output=True, text=True, check=True).stdout)
        _MODS[key] = _load(key, path)
    return _MODS[key]


PREVIOUS_REV = "2df521b"


# ----------------------------------------------------------------------------- variants
def variants(only: set[str]) -> list[tuple]:
    """Round 3: int8 M = 1 on the CUDA cores (GEMV) against the tensor-core decode kernel.

    Round 1 was commit d5d6b24 of this file, round 2 commit 7285ff3; their results are in
    bench/results/catalogue_tuning_round{1,2}.json and catalogue_tuning.md."""
    jobs: list[tuple] = []
    if "int8_wo_matmul" in only:
        for dt, shapes in (("float16", [I8_DECODE[0], I8_DECODE[2], I8_DECODE[5]]),
                           ("bfloat16", [I8_DECODE[0], I8_DECODE[5]])):
            for shape in shapes:
                jobs.append(("int8_wo_matmul", "torch", shape, dt, None))
                jobs.append(("int8_wo_matmul", "decode", shape, dt, (128, 128, 8, 4, 3, True)))
                jobs.append(("int8_wo_matmul", "decode", shape, dt, (128, 128, 1, 8, 3, True)))
                for bn in (64, 128, 256):
                    for bk in (16, 32, 64):
                        for split in (1, 2, 4, 8):
                            for warps in (4, 8):
                                jobs.append(("int8_wo_matmul", "gemv", shape, dt, (bn, bk, split, warps)))
        for bn, bk in ((16, 128), (16, 256), (32, 128), (32, 256), (64, 64), (128, 32)):
            for split in (1, 4):
                jobs.append(("int8_wo_matmul", "gemv", I8_DECODE[2], "float16", (bn, bk, split, 4, "T")))
    return jobs


# ----------------------------------------------------------------------------- launchers
def make(job, device="cuda"):
    """(fn, check) for a job: fn() runs the variant once; check() raises if its output is wrong."""
    import torch
    import torch.nn.functional as F
    import triton

    drill, kind, shape, dt, cfg = job
    dtype = getattr(torch, dt)
    gen = torch.Generator(device=device).manual_seed(0)
    if drill == "bias_gelu":
        M, N = shape
        x = torch.randn(M, N, device=device, generator=gen).to(dtype)
        b = torch.randn(N, device=device, generator=gen).to(dtype)
        ref = lambda: F.gelu(x + b)  # noqa: E731
        if kind == "torch":
            return ref, None
        mod = solution("bias_gelu")
        tol = {"float32": 1e-5, "float16": 2e-3, "bfloat16": 1.6e-2}[dt]
        if kind == "solution":
            fn = lambda: mod.bias_gelu(x, b)  # noqa: E731
            return fn, lambda: torch.testing.assert_close(fn(), ref(), atol=tol, rtol=tol)
        cap, elems, warps, lib = cfg
        block_n = min(triton.next_power_of_2(N), cap)
        block_m = max(1, min(elems // block_n, triton.next_power_of_2(M)))
        y = torch.empty_like(x)
        grid = (triton.cdiv(M, block_m), triton.cdiv(N, block_n))

        def fn():
            mod.bias_gelu_kernel[grid](x, b, y, M, N, x.stride(0), x.stride(1), y.stride(0),
                                       BLOCK_M=block_m, BLOCK_N=block_n, LIBDEVICE_ERF=lib,
                                       num_warps=warps)
            return y
        return fn, lambda: torch.testing.assert_close(fn(), ref(), atol=tol, rtol=tol)
    if drill == "cross_entropy":
        M, V = shape
        x = torch.randn(M, V, device=device, generator=gen).to(dtype)
        t = torch.randint(0, V, (M,), device=device, generator=gen)
        ref = lambda: F.cross_entropy(x, t, reduction="none")  # noqa: E731
        if kind == "torch":
            return ref, None
        if kind == "previous":
            fn = lambda: previous("cross_entropy").cross_entropy(x, t)  # noqa: E731
        else:
            mod = solution("cross_entropy")
            cap, warps, lazy, stages = cfg
            loss = torch.empty(M, device=device, dtype=torch.float32)
            align = 16 // x.element_size()
            block_v = max(min(triton.next_power_of_2(V), cap), align)

            def fn():
                mod.cross_entropy_kernel[(M,)](x, t, loss, V, x.stride(0), x.stride(1), -100,
                                               BLOCK_V=block_v, ALIGN=align, CONTIG=True,
                                               LAZY=lazy, STAGES=stages, num_warps=warps)
                return loss
        return fn, lambda: torch.testing.assert_close(
            fn(), F.cross_entropy(x.double(), t, reduction="none").float(), atol=2e-4, rtol=1e-5)
    if drill == "softmax_backward":
        M, N = shape
        y = torch.softmax(torch.randn(M, N, device=device, generator=gen), -1).to(dtype)
        dy = torch.randn(M, N, device=device, generator=gen).to(dtype)
        ref = lambda: torch._softmax_backward_data(dy, y, -1, y.dtype)  # noqa: E731
        if kind == "torch":
            return ref, None
        mod = solution("softmax_backward")
        dx = torch.empty_like(y)
        if kind == "previous":
            fn = lambda: previous("softmax_backward").softmax_backward(y, dy)  # noqa: E731
        elif kind == "solution":
            fn = lambda: mod.softmax_backward(y, dy)  # noqa: E731
        elif kind == "rows":
            (warps,) = cfg

            def fn():
                mod.softmax_bwd_rows_kernel[(M,)](y, dy, dx, M, N, y.stride(0), y.stride(1),
                                                  dy.stride(0), dy.stride(1), dx.stride(0),
                                                  BLOCK_M=1, BLOCK_N=triton.next_power_of_2(N),
                                                  num_warps=warps)
                return dx
        else:
            block, warps, budget, head = cfg
            programs = M if budget == 0 else mod.looped_programs(M, N, y.element_size(), budget << 20)

            def fn():
                mod.softmax_bwd_looped_kernel[(programs,)](y, dy, dx, M, N, y.stride(0), y.stride(1),
                                                           dy.stride(0), dy.stride(1), dx.stride(0),
                                                           BLOCK_N=block, HEAD=head, num_warps=warps)
                return dx
        tol = 1e-5 if dt == "float32" else 2e-3
        return fn, lambda: torch.testing.assert_close(
            fn(), torch._softmax_backward_data(dy.float(), y.float(), -1, torch.float32).to(dtype),
            atol=tol, rtol=tol)
    # int8_wo_matmul
    M, N, K = shape
    x = torch.randn(M, K, device=device, generator=gen).to(dtype)
    w = torch.randint(-128, 128, (K, N), device=device, generator=gen, dtype=torch.int8)
    if cfg is not None and cfg[-1] == "T":       # nn.Linear layout: K contiguous
        w = w.t().contiguous().t()
    s = ((0.5 + torch.rand(N, device=device, generator=gen)) / (64 * K ** 0.5)).to(dtype)
    ref = lambda: torch.matmul(x, w.to(x.dtype) * s)  # noqa: E731
    if kind == "torch":
        return ref, None
    if kind == "cublas":
        wf = w.to(dtype)
        return (lambda: torch.matmul(x, wf)), None
    mod = solution("int8_wo_matmul")
    if kind == "gemv":
        fn = lambda: mod.int8_wo_matmul(x, w, s, gemv=tuple(cfg[:4]))  # noqa: E731
    elif kind == "decode":
        bn, bk, split, warps, stages, fast = cfg[:6]
        table = {"BLOCK_N": bn, "BLOCK_K": bk, "SPLIT_K": split, "num_warps": warps,
                 "num_stages": stages, "FAST": fast}
        fn = lambda: mod.int8_wo_matmul(x, w, s, decode_table=table)  # noqa: E731
    elif kind == "gemm":
        bm, bn, bk, warps, stages, fast = cfg
        yb = torch.empty(M, N, device=device, dtype=dtype)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)

        def fn():
            mod.int8_wo_matmul_kernel.fn[grid](x, w, s, yb, M, N, K, x.stride(0), x.stride(1),
                                               w.stride(0), w.stride(1), yb.stride(0), yb.stride(1),
                                               UPCAST=False, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                               GROUP_M=8, FAST=fast, num_warps=warps, num_stages=stages)
            return yb
    else:   # swap: the split-K kernel with large tiles and no split
        bn, bm, bk, warps, stages, fast = cfg
        yb = torch.empty(M, N, device=device, dtype=dtype)
        grid = (triton.cdiv(N, bn), 1, triton.cdiv(M, bm))

        def fn():
            mod.int8_wo_splitk_kernel[grid](x, w, s, yb, M, N, K, x.stride(0), x.stride(1),
                                            w.stride(0), w.stride(1), yb.stride(0), yb.stride(1),
                                            UPCAST=False, BLOCK_N=bn, BLOCK_M=bm, BLOCK_K=bk,
                                            SPLIT_K=1, EVEN_K=K % bk == 0, FAST=fast, num_warps=warps,
                                            num_stages=stages)
            return yb
    tol = 2e-3 if dt == "float16" else 1.6e-2
    return fn, lambda: torch.testing.assert_close(
        fn(), (x.double() @ (w.double() * s.double())).to(dtype), atol=tol, rtol=tol)


def _compile(jobs):
    import torch
    done = 0
    for job in jobs:
        try:
            fn, _ = make(job)
            fn()
            done += 1
        except Exception:  # noqa: BLE001 - reported when timed
            pass
        torch.cuda.empty_cache()
    torch.cuda.synchronize()
    return done


def time_job(job) -> dict:
    import torch

    from studio.drills.harness.timing import _quantiles, _samples
    drill, kind, shape, dt, cfg = job
    row = {"drill": drill, "kind": kind, "shape": list(shape), "dtype": dt,
           "cfg": list(cfg) if cfg else None}
    try:
        fn, check = make(job)
        if check is not None:
            check()
        med, p20, p80 = _quantiles(_samples(fn, 10, 40))
        row.update(us=round(med * 1e3, 2), p20=round(p20 * 1e3, 2), p80=round(p80 * 1e3, 2))
    except Exception as exc:  # noqa: BLE001
        row["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
    torch.cuda.empty_cache()
    return row


def bytes_of(drill, shape, dt) -> int:
    """The drill's own bytes model (kernels/<id>/spec.py), as the engine counts it."""
    from studio.drills.catalog import get_drill
    spec = _load(f"spec_{drill}", get_drill(drill).spec_module)
    return int(spec.bytes_moved({"shape": list(shape), "dtype": dt}))


def summary(rows: list[dict], copy_gbps: float) -> str:
    lines = []
    groups: dict = {}
    for r in rows:
        groups.setdefault((r["drill"], tuple(r["shape"]), r["dtype"]), []).append(r)
    for (drill, shape, dt), rs in groups.items():
        ok = [r for r in rs if "us" in r]
        torch_row = next((r for r in ok if r["kind"] == "torch"), None)
        cands = [r for r in ok if r["kind"] not in ("torch", "cublas")]
        if not cands:
            lines.append(f"{drill} {list(shape)} {dt}: no variant ran "
                         f"({'; '.join(r.get('error', '')[:80] for r in rs if 'error' in r)[:300]})")
            continue
        best = min(cands, key=lambda r: r["us"])
        nbytes = bytes_of(drill, shape, dt)
        pct = 100 * nbytes / (best["us"] * 1e-6) / 1e9 / copy_gbps
        prev = next((r for r in ok if r["kind"] == "previous"), None)
        cub = next((r for r in ok if r["kind"] == "cublas"), None)
        extra = f" previous {prev['us']} us" if prev else ""
        extra += f" cuBLAS {cub['us']} us" if cub else ""
        lines.append(f"{drill} {list(shape)} {dt}: best {best['kind']} {best['cfg']} {best['us']} us "
                     f"= {pct:.1f}% of copy bw; torch {torch_row['us'] if torch_row else '-'} us{extra}; "
                     f"errors {sum('error' in r for r in rs)}/{len(rs)}")
        top = sorted(cands, key=lambda r: r["us"])[:4]
        lines.append("    top: " + "; ".join(f"{r['kind']} {r['cfg']} {r['us']}" for r in top))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--budget-s", type=float, default=500)
    parser.add_argument("--only", default="bias_gelu,cross_entropy,softmax_backward,int8_wo_matmul")
    parser.add_argument("--workers", type=int, default=12)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    import multiprocessing

    import torch
    import triton

    from studio.drills.harness.timing import measure_copy_gbps
    only = set(args.only.split(","))
    for drill in only:
        if drill == "softmax_backward":
            previous(drill)
    jobs = variants(only)
    report = {"command": " ".join(sys.argv), "device": torch.cuda.get_device_name(),
              "torch": torch.__version__, "triton": triton.__version__, "jobs": len(jobs),
              "rows": []}
    report["copy_gbps"] = measure_copy_gbps()
    chunks = [jobs[i::args.workers] for i in range(args.workers)]
    with futures.ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        report["compiled"] = sum(pool.map(_compile, chunks))
    report["compiled_at_s"] = round(time.monotonic() - START, 1)
    deadline = START + args.budget_s
    for job in jobs:
        if time.monotonic() > deadline:
            report["cut_short"] = True
            break
        report["rows"].append(time_job(job))
    report["total_s"] = round(time.monotonic() - START, 1)
    text = summary(report["rows"], report["copy_gbps"])
    report["summary"] = text
    (out / "tuning.json").write_text(json.dumps(report, indent=1))
    print(f"copy {report['copy_gbps']:.0f} GB/s; compiled {report['compiled']}/{len(jobs)} "
          f"by {report['compiled_at_s']} s; total {report['total_s']} s")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
