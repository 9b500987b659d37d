"""GPU verification of the drill engine (run on a machine with an NVIDIA GPU).

    STUDIO_HOME=/tmp/sh PYTHONPATH=. python bench/drills_gpu_check.py --out DIR [--explore]

What it checks, each recorded in DIR/drills_gpu_check.json and summarised in
DIR/drills_gpu_check.md:
1. every drill's reference solution passes `studio-drill run D @solution` on the GPU; the
   first run compiles (in parallel), the second is timed wall-clock (target < 10 s);
2. `studio-drill run D @solution --bench --json` for every drill; the torch baseline's
   ref_ms must agree with an independent triton.testing.do_bench median of the same op on
   the same shapes within 5%;
3. softmax, layernorm and rmsnorm reach >= 90% of the measured copy bandwidth at
   M=4096, N>=4096 (fp16 and fp32) and are at least as fast as torch at every size;
4. every bad kernel in tests/drills/bad_kernels gets its expected outcome on the GPU too
   (including the GPU-only illegal-address kernel);
5. (--explore) times BLOCK_M x num_warps variants of the row kernels, to tune TUNED_LAUNCH in the
   solutions (bench/results/drills_gpu_tuning.md tells how the current table was chosen).
Prints a short table last.
"""

from __future__ import annotations

import argparse
import concurrent.futures as futures
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DRILLS = ("vector_add", "softmax", "layernorm", "rmsnorm")
ROW_DRILLS = ("softmax", "layernorm", "rmsnorm")
BAD = REPO / "tests" / "drills" / "bad_kernels"
# bad kernel -> (drill, acceptable statuses, flag that must be raised or None)
BAD_EXPECTED = {
    "softmax_npot_tail": ("softmax", {"failed"}, None),
    "softmax_ignores_strides": ("softmax", {"failed"}, None),
    "softmax_no_max": ("softmax", {"failed"}, None),
    "layernorm_naive_variance": ("layernorm", {"failed"}, None),
    "rmsnorm_square_in_fp16": ("rmsnorm", {"failed"}, None),
    "vector_add_oob_store": ("vector_add", {"failed"}, None),
    "softmax_mutates_input": ("softmax", {"failed"}, None),
    "softmax_calls_reference": ("softmax", {"failed"}, "calls_reference"),
    "rmsnorm_calls_reference": ("rmsnorm", {"failed"}, "calls_reference"),
    "softmax_torch_only": ("softmax", {"failed"}, "no_triton_kernel"),
    "hangs": ("softmax", {"timeout"}, None),
    "kernel_spins": ("softmax", {"timeout"}, None),
    "leaves_grandchild": ("softmax", {"timeout"}, None),
    "exits": ("softmax", {"crash"}, None),
    "exits_cleanly": ("softmax", {"failed"}, None),
    "segfault": ("softmax", {"crash"}, None),
    "prints_megabytes": ("softmax", {"failed"}, None),
    "forged_output": ("softmax", {"failed"}, None),
    "raises_on_import": ("softmax", {"import_error"}, None),
    "syntax_error": ("softmax", {"syntax_error"}, None),
    "no_entry": ("softmax", {"missing_entry"}, None),
    "returns_wrong_dtype": ("softmax", {"failed"}, None),
    "unwritten_output": ("layernorm", {"failed"}, None),
    "cuda_illegal_address": ("softmax", {"cuda_error"}, None),
    "softmax_small_grid": ("softmax", {"failed"}, None),
    "softmax_side_stream": ("softmax", {"failed"}, "invalid_timing"),   # run with --bench
}


def cli(*args: str, timeout: float = 590) -> tuple[dict | None, float, str]:
    """Run studio-drill with --json; (parsed result, wall seconds, stderr tail)."""
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "studio.drills.cli", *args, "--json"],
                          capture_output=True, text=True, cwd=REPO, timeout=timeout)
    wall = time.monotonic() - start
    try:
        return json.loads(proc.stdout), wall, proc.stderr[-2000:]
    except ValueError:
        return None, wall, (proc.stdout[-1000:] + proc.stderr[-2000:])


def slim(result: dict | None) -> dict | None:
    if result is None:
        return None
    keep = {k: result.get(k) for k in ("drill", "status", "mode", "device", "versions", "flags",
                                        "flag_details", "error", "duration_s", "lang")}
    keep["cases_failed"] = [c for c in result.get("cases", []) if not c["passed"]]
    keep["n_cases"] = len(result.get("cases", []))
    keep["stdout_dropped"] = result["console"]["stdout_dropped_bytes"]
    return keep


class Report:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.data: dict = {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}

    def save(self) -> None:
        (self.out / "drills_gpu_check.json").write_text(json.dumps(self.data, indent=1, default=str))


def environment() -> dict:
    import torch
    import triton
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem",
                          "--format=csv,noheader"], capture_output=True, text=True)
    return {"python": platform.python_version(), "torch": torch.__version__,
            "triton": triton.__version__, "cuda": torch.version.cuda,
            "device": torch.cuda.get_device_name(), "nvidia_smi": smi.stdout.strip(),
            "sm_count": torch.cuda.get_device_properties(0).multi_processor_count}


def _do_bench_read_flush(fn) -> float:
    """triton.testing.do_bench median with its L2 flush done by reading the 256 MiB buffer.

    The drill engine flushes this way (bench/results/flush_experiment.md: do_bench's memset
    leaves dirty lines that cost the timed kernel ~4 us); the independent timings here use
    the same flush, written out separately, so the comparison checks the engine's
    machinery rather than the flush method. `stock_do_bench_us` records plain do_bench too.
    """
    from triton import runtime
    from triton.testing import do_bench

    driver = runtime.driver.active
    memset = driver.clear_cache
    driver.clear_cache = lambda cache: cache.sum()
    try:
        return float(do_bench(fn, warmup=100, rep=300, quantiles=[0.5, 0.2, 0.8])[0])
    finally:
        driver.clear_cache = memset


def independent_torch_ms(drill: str, shape: list[int], dtype_name: str) -> tuple[float, list[float]]:
    """Median of three do_bench medians of the torch op itself (fresh tensors each time),
    outside the drill machinery; also returns the three, to show the noise floor."""
    runs = [_independent_once(drill, shape, dtype_name) for _ in range(3)]
    return sorted(runs)[1], runs


def _independent_once(drill: str, shape: list[int], dtype_name: str) -> float:
    import torch
    import torch.nn.functional as F
    from triton.testing import do_bench

    dtype = getattr(torch, dtype_name)
    if drill == "vector_add":
        x = torch.randn(shape, device="cuda").to(dtype)
        y = torch.randn(shape, device="cuda").to(dtype)
        fn = lambda: torch.add(x, y)  # noqa: E731
    else:
        x = torch.randn(shape, device="cuda").to(dtype)
        n = shape[-1]
        w = torch.randn(n, device="cuda").to(dtype)
        b = torch.randn(n, device="cuda").to(dtype)
        fn = {"softmax": lambda: torch.softmax(x, dim=-1),
              "layernorm": lambda: F.layer_norm(x, (n,), w, b, 1e-5),
              "rmsnorm": lambda: F.rms_norm(x, (n,), w, 1e-6)}[drill]
    _independent_once.stock_us = round(float(do_bench(fn, warmup=100, rep=300, quantiles=[0.5, 0.2, 0.8])[0]) * 1e3, 2)
    return _do_bench_read_flush(fn)


def same_bytes_copy_ms(drill: str, shape: list[int], dtype_name: str) -> float:
    """do_bench median of torch's copy_ moving what the drill's bytes model counts
    (read x, write y): the best a kernel of this size can do under this timing."""
    import torch

    x = torch.randn(shape, device="cuda").to(getattr(torch, dtype_name))
    y = torch.empty_like(x)
    if drill == "vector_add":     # reads two inputs: copy 1.5x the elements
        x = torch.randn(shape[0] * 3 // 2, device="cuda").to(x.dtype)
        y = torch.empty_like(x)
    return _do_bench_read_flush(lambda: y.copy_(x))


def check_bench(drill: str, result: dict) -> dict:
    points = result.get("bench", {}).get("points", []) if result else []
    rows = []
    for p in points:
        indep, runs = independent_torch_ms(drill, p["size"], p["dtype"])
        copy_ms = same_bytes_copy_ms(drill, p["size"], p["dtype"])
        ref_dev = (p["ref_ms"] - indep) / indep if p.get("ref_ms") else None
        rows.append({"size": p["size"], "dtype": p["dtype"], "us": _us(p.get("ms")),
                     "p20_us": _us(p.get("p20")), "p80_us": _us(p.get("p80")),
                     "torch_us": _us(p.get("ref_ms")), "torch_independent_us": _us(indep),
                     "torch_independent_runs_us": [_us(r) for r in runs],
                     "stock_do_bench_us": getattr(_independent_once, "stock_us", None),
                     "torch_agreement_pct": None if ref_dev is None else round(100 * ref_dev, 2),
                     "gbps": _r(p.get("gbps")), "torch_gbps": _r(p.get("ref_gbps")),
                     "pct_of_copy": _r(p.get("pct_of_peak")),
                     "torch_pct_of_copy": _r(p.get("ref_pct_of_peak")),
                     "speedup": _r(p.get("speedup"), 3), "passed": p.get("passed"),
                     "copy_us": _us(copy_ms),
                     "pct_of_same_size_copy": _r(100 * copy_ms / p["ms"]) if p.get("ms") else None,
                     "error": p.get("error")})
    return {"copy_gbps": result.get("bench", {}).get("copy_gbps") if result else None,
            "points": rows}


def _us(ms):
    return None if ms is None else round(ms * 1e3, 2)


def _r(v, digits=1):
    return None if v is None else round(v, digits)


def run_bad(name: str) -> dict:
    drill, statuses, flag = BAD_EXPECTED[name]
    timeout = "15" if statuses == {"timeout"} else "120"
    bench = ["--bench"] if flag == "invalid_timing" else []     # a timing flag needs timings
    result, wall, err = cli("run", drill, str(BAD / f"{name}.py"), "--timeout", timeout, *bench,
                            timeout=200)
    status = result["status"] if result else None
    flags = result["flags"] if result else []
    ok = status in statuses and (flag is None or flag in flags)
    return {"name": name, "drill": drill, "status": status, "flags": flags, "ok": ok,
            "error": (result or {}).get("error"), "wall_s": round(wall, 1),
            "stderr": None if result else err}


BENCH_M = 4096


def explore(report: Report, deadline: float) -> None:
    """Time launch variants of each row kernel at M=BENCH_M (compiled in parallel first)."""
    jobs = [(d, dt, n, *v) for d in ROW_DRILLS for dt in ("float16", "float32")
            for n in (256, 512, 1024, 2048, 4096, 8192, 16384) for v in variants(n)]
    report.data["explore"] = {"jobs": len(jobs), "rows": []}
    with futures.ProcessPoolExecutor(max_workers=12, mp_context=_spawn()) as pool:
        list(pool.map(_compile_variants, [jobs[i::12] for i in range(12)]))
    report.data["explore"]["precompiled_at_s"] = round(time.monotonic() - START, 1)
    for job in jobs:
        if time.monotonic() > deadline:
            report.data["explore"]["cut_short"] = True
            break
        report.data["explore"]["rows"].append(_time_variant(*job))
    report.save()


def variants(n: int) -> list[tuple[int, int]]:
    """(BLOCK_M, num_warps) pairs giving 8-32 values per thread and 1-8 Ki values per program."""
    block_n = 1 << (n - 1).bit_length()
    out = []
    for elems in sorted({block_n, 2048, 4096, 8192}):
        if elems < block_n:
            continue
        for nw in (4, 8, 16, 32):
            if 8 <= elems // (nw * 32) <= 32:
                out.append((elems // block_n, nw))
    return out


def _spawn():
    import multiprocessing
    return multiprocessing.get_context("spawn")


def _solution(drill: str):
    spec = importlib.util.spec_from_file_location(f"sol_{drill}", REPO / "kernels" / drill / "solution.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_KERNELS: dict = {}


def _launcher(drill, dtype_name, n, bm, nw, device="cuda"):
    """A zero-argument launch of `drill`'s row kernel with an explicit launch shape."""
    import torch
    import triton
    if drill not in _KERNELS:
        _KERNELS[drill] = _solution(drill)
    mod = _KERNELS[drill]
    dtype = getattr(torch, dtype_name)
    m = BENCH_M
    x = torch.randn(m, n, device=device).to(dtype)
    y = torch.empty_like(x)
    w = torch.randn(n, device=device).to(dtype)
    b = torch.randn(n, device=device).to(dtype)
    grid = (triton.cdiv(m, bm),)
    meta = dict(BLOCK_M=bm, BLOCK_N=triton.next_power_of_2(n), num_warps=nw)
    if drill == "softmax":
        return lambda: mod.softmax_rows_kernel[grid](x, y, m, n, x.stride(0), x.stride(1), y.stride(0), **meta)
    if drill == "layernorm":
        return lambda: mod.layernorm_rows_kernel[grid](x, w, b, y, m, n, x.stride(0), x.stride(1), y.stride(0),
                                                       w.stride(0), b.stride(0), 1e-5, **meta)
    return lambda: mod.rmsnorm_rows_kernel[grid](x, w, y, m, n, x.stride(0), x.stride(1), y.stride(0),
                                                 w.stride(0), 1e-6, **meta)


def _compile_variants(jobs):
    import torch
    for job in jobs:
        try:
            _launcher(*job)()
        except Exception:  # noqa: BLE001 - a variant that fails to compile is reported later
            pass
    torch.cuda.synchronize()
    return len(jobs)


def _time_variant(drill, dtype_name, n, bm, nw):
    from triton.testing import do_bench
    row = {"drill": drill, "dtype": dtype_name, "N": n, "BLOCK_M": bm, "num_warps": nw}
    try:
        fn = _launcher(drill, dtype_name, n, bm, nw)
        compiled = fn()
        row["regs"] = getattr(compiled, "n_regs", None)
        row["spills"] = getattr(compiled, "n_spills", None)
        row["us"] = round(do_bench(fn, warmup=10, rep=40, quantiles=[0.5, 0.2, 0.8])[0] * 1e3, 2)
    except Exception as exc:  # noqa: BLE001
        row["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    return row


def summarise(report: Report) -> str:
    d = report.data
    lines = [f"# Drill engine GPU check ({d['started']})", "",
             f"Device: {d['env']['device']} ({d['env']['nvidia_smi']}); python {d['env']['python']}, "
             f"torch {d['env']['torch']}, triton {d['env']['triton']}, CUDA {d['env']['cuda']}", ""]
    lines.append("## Reference solutions (second run, JIT cache warm)")
    for drill, r in d.get("second_run", {}).items():
        lines.append(f"- {drill}: {r['status']}, {r['n_cases']} cases, wall {r['wall_s']} s")
    lines.append("")
    for drill, b in d.get("bench", {}).items():
        lines.append(f"## {drill} (copy bandwidth {b['copy_gbps']:.0f} GB/s)" if b.get("copy_gbps") else f"## {drill}")
        lines.append("| size | dtype | us [p20-p80] | GB/s | % copy bw | same-bytes copy us | % of it | "
                     "torch us | torch indep. us (3 runs) | agree % | speedup |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for p in b["points"]:
            lines.append(f"| {p['size']} | {p['dtype']} | {p['us']} [{p['p20_us']}-{p['p80_us']}] | {p['gbps']} | "
                         f"{p['pct_of_copy']} | {p['copy_us']} | {p['pct_of_same_size_copy']} | {p['torch_us']} | "
                         f"{p['torch_independent_us']} {p['torch_independent_runs_us']} | "
                         f"{p['torch_agreement_pct']} | {p['speedup']} |")
        lines.append("")
    if "criteria" in d:
        lines.append("## Criteria")
        for name, c in d["criteria"].items():
            lines.append(f"- {'PASS' if c['ok'] else 'FAIL'} {name}: {c['detail']}")
        lines.append("")
    if d.get("explore", {}).get("rows"):
        lines.append("## Tuning: fastest (BLOCK_M, num_warps) per size (us) vs the solution's launch_config")
        lines.append("| drill | dtype | N | best | best us | current | current us |")
        lines.append("|---|---|---|---|---|---|---|")
        groups: dict = {}
        for row in d["explore"]["rows"]:
            if "us" in row:
                groups.setdefault((row["drill"], row["dtype"], row["N"]), []).append(row)
        for (drill, dtype, n), rows in groups.items():
            best = min(rows, key=lambda r: r["us"])
            cur = _current_row(drill, dtype, n, rows)
            lines.append(f"| {drill} | {dtype} | {n} | ({best['BLOCK_M']}, {best['num_warps']}) | {best['us']} | "
                         f"{(cur['BLOCK_M'], cur['num_warps']) if cur else 'n/a'} | {cur['us'] if cur else 'n/a'} |")
        lines.append("")
    if "bad_kernels" in d:
        lines.append("## Bad kernels on the GPU")
        for r in d["bad_kernels"]:
            lines.append(f"- {'ok ' if r['ok'] else 'BAD'} {r['name']}: {r['status']} {r['flags'] or ''}")
    return "\n".join(lines) + "\n"


def _current_row(drill: str, dtype: str, n: int, rows: list[dict]) -> dict | None:
    """The explored row matching what the solution's launch_config picks at M=BENCH_M."""
    import torch
    x = torch.empty(BENCH_M, n, dtype=getattr(torch, dtype))
    bm, _, nw = _solution(drill).launch_config(x)
    return next((r for r in rows if (r["BLOCK_M"], r["num_warps"]) == (bm, nw)), None)


def criteria(report: Report) -> None:
    d = report.data
    crit = {}
    second = d.get("second_run", {})
    crit["reference solutions pass"] = {
        "ok": bool(second) and all(r["status"] == "passed" for r in second.values()),
        "detail": ", ".join(f"{k}={v['status']}" for k, v in second.items())}
    crit["second run under 10 s"] = {
        "ok": bool(second) and all(r["wall_s"] < 10 for r in second.values()),
        "detail": ", ".join(f"{k}={v['wall_s']}s" for k, v in second.items())}
    agree = [(k, p) for k, b in d.get("bench", {}).items() for p in b["points"]
             if p["torch_agreement_pct"] is not None]
    worst = max(agree, key=lambda kp: abs(kp[1]["torch_agreement_pct"]), default=None)
    crit["torch ref_ms within 5% of independent do_bench"] = {
        "ok": bool(agree) and all(abs(p["torch_agreement_pct"]) <= 5 for _, p in agree),
        "detail": f"{sum(abs(p['torch_agreement_pct']) <= 5 for _, p in agree)}/{len(agree)} points; worst "
                  + (f"{worst[0]} {worst[1]['size']} {worst[1]['dtype']}: {worst[1]['torch_agreement_pct']}%" if worst else "n/a")}
    big = [(k, p) for k in ROW_DRILLS for p in d.get("bench", {}).get(k, {}).get("points", [])
           if p["size"][0] == 4096 and p["size"][1] >= 4096]
    crit[">= 90% of copy bandwidth at M=4096, N>=4096"] = {
        "ok": bool(big) and all((p["pct_of_copy"] or 0) >= 90 for _, p in big),
        "detail": "; ".join(f"{k} {p['size'][1]} {p['dtype']}: {p['pct_of_copy']}%" for k, p in big)}
    crit["(context) >= 90% of a same-bytes torch copy at M=4096, N>=4096"] = {
        "ok": bool(big) and all((p["pct_of_same_size_copy"] or 0) >= 90 for _, p in big),
        "detail": "; ".join(f"{k} {p['size'][1]} {p['dtype']}: {p['pct_of_same_size_copy']}% "
                            f"(copy itself {round(100 * p['gbps'] * p['us'] / p['copy_us'] / (d['bench'][k]['copy_gbps'] or 1), 1)}% of copy bw)"
                            for k, p in big)}
    rows = [(k, p) for k in ROW_DRILLS for p in d.get("bench", {}).get(k, {}).get("points", [])]
    slow = [(k, p) for k, p in rows if (p["speedup"] or 0) < 1.0]
    crit["at least as fast as torch at every size"] = {
        "ok": bool(rows) and not slow,
        "detail": f"{len(rows) - len(slow)}/{len(rows)} points >= 1.0x" + (
            "; slower: " + ", ".join(f"{k} {p['size']} {p['dtype']} {p['speedup']}x" for k, p in slow) if slow else "")}
    bad = d.get("bad_kernels", [])
    crit["bad kernels: expected outcome, zero false passes"] = {
        "ok": bool(bad) and all(r["ok"] for r in bad),
        "detail": f"{sum(r['ok'] for r in bad)}/{len(bad)}; unexpected: "
                  + (", ".join(f"{r['name']}={r['status']}" for r in bad if not r["ok"]) or "none")}
    d["criteria"] = crit


START = time.monotonic()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--explore", action="store_true")
    parser.add_argument("--budget-s", type=float, default=540)
    parser.add_argument("--skip-bad", action="store_true")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    deadline = START + args.budget_s
    report = Report(out)
    report.data["command"] = " ".join(sys.argv)
    report.data["env"] = environment()
    report.save()

    # 1. first runs (JIT compile) in parallel, then timed second runs
    with futures.ThreadPoolExecutor(max_workers=4) as pool:
        firsts = dict(zip(DRILLS, pool.map(lambda d: cli("run", d, "@solution", "--timeout", "400"), DRILLS)))
    report.data["first_run"] = {d: {**(slim(r) or {"stderr": e}), "wall_s": round(w, 1)}
                                for d, (r, w, e) in firsts.items()}
    report.data["first_run_done_at_s"] = round(time.monotonic() - START, 1)
    report.save()
    second = {}
    for drill in DRILLS:
        r, w, e = cli("run", drill, "@solution")
        second[drill] = {**(slim(r) or {"stderr": e}), "wall_s": round(w, 1)}
    report.data["second_run"] = second
    report.save()

    # 2./3. benchmarks and the independent torch timings
    report.data["bench"] = {}
    for drill in DRILLS:
        r, w, e = cli("run", drill, "@solution", "--bench")
        report.data["bench"][drill] = {**check_bench(drill, r), "status": (r or {}).get("status"),
                                       "flags": (r or {}).get("flags"), "wall_s": round(w, 1),
                                       "stderr": None if r else e}
        report.save()
    facts = Path(os.environ.get("STUDIO_HOME", "/tmp/sh")) / "cache" / "drill_device_facts.json"
    report.data["device_facts_cache"] = json.loads(facts.read_text()) if facts.is_file() else None
    report.data["bench_done_at_s"] = round(time.monotonic() - START, 1)
    report.save()

    # 5. tuning data, leaving time for the bad kernels (which include GPU hangs)
    if args.explore:
        explore(report, deadline - 100)

    # 4. bad kernels, four at a time
    if not args.skip_bad:
        with futures.ThreadPoolExecutor(max_workers=4) as pool:
            report.data["bad_kernels"] = list(pool.map(run_bad, BAD_EXPECTED))
        report.data["bad_done_at_s"] = round(time.monotonic() - START, 1)
        report.save()

    criteria(report)
    report.data["total_s"] = round(time.monotonic() - START, 1)
    report.save()
    summary = summarise(report)
    (out / "drills_gpu_check.md").write_text(summary)
    print(summary)
    return 0 if all(c["ok"] for c in report.data["criteria"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
