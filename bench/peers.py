"""Reference solutions against the field's best, timed three ways (#21). Needs a GPU.

    python bench/peers.py [--drills softmax,layernorm] [--budget-s 540] [--runs 3]
                          [--protocols engine,do_bench,cudagraph] [--dtypes float16,bfloat16]
                          [--sweeps model_rows,long_rows] [--sizes 16384x512,...]
                          [--out bench/results/peers.md]

For every memory-bound drill (metric GB/s, one process: not the parallelism drills) and every
point of its model-like sweeps (studio/drills/sweeps.py; a drill without them: its drill.yaml
bench sizes, which are real models' shapes too), the drill's reference solution
(kernels/<id>/solution.py) and its peers:
- torch eager: the drill's baseline (spec.py);
- torch.compile: the same baseline through Inductor, compiled once per shape (dynamic=False)
  outside any timing (fused_adamw: the same update in plain torch ops, `compile_target`: its
  baseline's fused op does not compile);
- Liger-Kernel's Triton op where it is installed (optional import; never a dependency);
each on its own copy of the inputs (several of them write into theirs: AdamW's state, Liger's
rope and cross-entropy), checked against the drill's float64 reference with the drill's
tolerance, through `peer_problem` where a peer's answer has another form (a wrong peer is left
out, with why),
then timed interleaved in this one process under each protocol:
- engine: do_bench with L2 flushed by *reading* 256 MiB (clean L2), launch overhead included;
- do_bench: triton.testing.do_bench as shipped (memset flush: L2 full of dirty lines);
- cudagraph: triton.testing.do_bench_cudagraph (no flush: inputs may stay in L2; launch
  overhead removed by graph replay).
Each of --runs runs times every contender once per protocol, in an order rotated per run.
The table (studio/drills/peer_table.py) gives per point each contender's median of run
medians with the run-to-run noise, the best peer, solution / best-peer ratio and whether the
point is met (within noise). The run stops starting points when --budget-s is spent and
says which were not run. Markdown and JSON go to --out (and .json beside it).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from studio.drills import peer_table, sweeps  # noqa: E402

PROTOCOLS = ("engine", "do_bench", "cudagraph")
COMPUTE_DRILLS = ("flash_attention", "matmul")     # timed over drill.yaml's bench sizes


# ----- peers ------------------------------------------------------------------------------
def liger_peer(drill: str) -> tuple[Callable | None, str | None]:
    """(Liger-Kernel's op with the drill's signature, or None; why not)."""
    try:
        if drill == "rmsnorm":
            from liger_kernel.ops.rms_norm import LigerRMSNormFunction
            return (lambda x, w, eps: LigerRMSNormFunction.apply(x, w, eps)), None
        if drill == "layernorm":
            from liger_kernel.ops.layer_norm import LigerLayerNormFunction
            return (lambda x, w, b, eps: LigerLayerNormFunction.apply(x, w, b, eps)), None
        if drill == "softmax":
            from liger_kernel.ops.softmax import LigerSoftmaxFunction
            return (lambda x: LigerSoftmaxFunction.apply(x)), None
        if drill == "swiglu":
            try:    # the fused gate|up input, as the drill takes it (Liger >= 0.8)
                from liger_kernel.ops.swiglu import swiglu_fused_gate_up_forward
                return (lambda gu: swiglu_fused_gate_up_forward(gu)[1]), None
            except ImportError:
                from liger_kernel.ops.swiglu import LigerSiLUMulFunction
                return (lambda gu: LigerSiLUMulFunction.apply(*gu.chunk(2, dim=-1))), None
        if drill == "residual_rmsnorm":
            from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction

            def fused_add(x, r, w, eps):      # Liger gives (y, h); the drill's order is (h, y)
                y, h = LigerFusedAddRMSNormFunction.apply(x, r, w, eps)
                return h, y
            return fused_add, None
        if drill == "layernorm_backward":
            from liger_kernel.ops.layer_norm import layer_norm_backward

            # (dx, dw, db); the drill's LayerNorm has a weight and a bias of the same dtype
            return (lambda dy, x, w, mean, rstd: layer_norm_backward(dy, x, w, w, mean, rstd)), None
        if drill == "rope":
            from liger_kernel.ops.rope import rope_forward
            return _liger_rope(rope_forward), None
        if drill == "cross_entropy":
            from liger_kernel.ops.cross_entropy import cross_entropy_forward

            def ce(logits, target, ignore_index):
                # forward only, per-row losses. It zeroes the ignored rows of its input in place
                # (and writes gradients there when the input requires them): run_drill gives it
                # a private copy of the inputs, made once outside the timing.
                return cross_entropy_forward(logits, target, None, ignore_index, 0.0, 0.0, "none", None, False)[0]
            return ce, None
    except ImportError as exc:
        return None, f"Liger-Kernel not installed ({exc.name})"
    except Exception as exc:  # noqa: BLE001 - an API that moved: no peer, said why
        return None, f"Liger-Kernel: {type(exc).__name__}: {exc}"
    return None, "no Liger-Kernel op for this drill"


def _liger_rope(rope_forward: Callable) -> Callable:
    """Liger's rope with the drill's signature. Liger rotates q and k together, in place, with
    [1, S, head_dim] cos / sin tables in the Hugging Face layout (each half repeated); the drill
    has q alone and [S, head_dim / 2] float32 tables. The peer passes a one-head k (1/H more
    work than the drill asks) and full-width tables, built once per table, outside the timing."""
    import torch

    tables: dict[tuple, tuple] = {}
    ks: dict[tuple, Any] = {}

    def rope(q, cos, sin):
        key = (cos.data_ptr(), sin.data_ptr(), q.dtype)
        if key not in tables:
            tables[key] = tuple(torch.cat([t, t], dim=-1)[None].to(q.dtype).contiguous() for t in (cos, sin))
        b, s, _, d = q.shape
        kkey = (b, s, d, q.dtype, q.device)
        if kkey not in ks:
            ks[kkey] = torch.zeros(b, s, 1, d, dtype=q.dtype, device=q.device)
        c, sn = tables[key]
        # Liger's layout is [B, H, S, D] views of [B, S, H, D] storage, which is the drill's
        return rope_forward(q.transpose(1, 2), ks[kkey].transpose(1, 2), c, sn)[0].transpose(1, 2)
    return rope


# ----- the drills, and checking a peer -------------------------------------------------------
def memory_bound_drills() -> list[str]:
    """Built-in drills timed in GB/s in one process (not the parallelism drills), with sizes."""
    from studio.drills.catalog import load_catalog

    return [d.id for d in load_catalog() if d.error is None and d.metric == "gbps" and d.distributed is None
            and (d.bench_shapes or d.id in sweeps.DRILL_SWEEPS)]


def adamw_in_torch_ops(param, grad, exp_avg, exp_avg_sq, step, lr, beta1, beta2, eps, weight_decay):
    """The AdamW update as torch.optim.AdamW's single-tensor path writes it (decoupled weight decay,
    bias corrections, in place), in plain torch ops: what torch.compile fuses when it compiles an
    optimizer step. The fused_adamw baseline's `torch._fused_adamw_` cannot itself be compiled:
    AOT autograd's functionalization stops on it with an internal assert ("mutating a
    non-functional tensor with a functional tensor", torch 2.11 and 2.13, every grad dtype)."""
    import math

    g = grad.float()
    param.mul_(1.0 - lr * weight_decay)
    exp_avg.lerp_(g, 1.0 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(g, g, value=1.0 - beta2)
    denom = (exp_avg_sq.sqrt() / math.sqrt(1.0 - beta2 ** step)).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-lr / (1.0 - beta1 ** step))
    return param


def compile_target(drill: str, spec: Any) -> Callable:
    """What the torch.compile peer compiles: the drill's baseline, except where Inductor cannot
    take it (fused_adamw: the same update in plain ops, adamw_in_torch_ops)."""
    return adamw_in_torch_ops if drill == "fused_adamw" else spec.baseline


def peer_problem(torch: Any, drill: str, out: Any, ref: Any, inputs: tuple, tol: Any) -> str | None:
    """Why a contender's answer is wrong (None: right). Most answers are compared with the
    reference directly; some drills' peers answer in another form, or legitimately differ:
    - residual_rmsnorm: torch and Liger give (h, y) as two tensors, not stacked;
    - layernorm_backward: (dx, dw, db) against the drill's [dx; dw; db];
    - fused_adamw: torch's fused op updates in place and returns the parameter;
    - moe_gating: torch's five tensors; the expert ids of tied logits may come in any order,
      so only the routing weights are compared (the top-k values, in descending order);
    - topk_rows: on tied values any index is right: the values at the indices are compared;
    - dropout: torch's mask comes from its own generator: every element must be 0 or
      x / (1 - p), and the share dropped within 6 standard deviations of p."""
    if drill == "residual_rmsnorm" and isinstance(out, (tuple, list)):
        out = torch.stack(tuple(out))
    elif drill == "layernorm_backward" and isinstance(out, (tuple, list)):
        dx, dw, db = out
        out = torch.cat([dx.double(), dw.double()[None], db.double()[None]])
    elif drill == "fused_adamw" and isinstance(out, torch.Tensor) and out.dim() == ref.dim() - 1:
        ref = ref[0]
    elif drill == "moe_gating" and isinstance(out, (tuple, list)):
        n = out[0].numel()
        out, ref = out[0].reshape(-1), ref[:n]
    elif drill == "topk_rows" and isinstance(out, torch.Tensor) and out.shape == ref.shape:
        x = inputs[0]
        out, ref = x.gather(-1, out.long()), x.gather(-1, ref.long().to(x.device))
    elif drill == "dropout" and isinstance(out, torch.Tensor):
        x, p = inputs[0], float(inputs[1])
        if tuple(out.shape) != tuple(x.shape):
            return f"returned shape {tuple(out.shape)}, expected {tuple(x.shape)}"
        dropped = out == 0
        kept = torch.isclose(out.double(), x.double() / (1 - p), atol=tol.atol, rtol=tol.rtol)
        if not bool((dropped | kept).all()):
            return "an element is neither 0 nor x / (1 - p)"
        n = x.numel()
        share = float(dropped.sum() - (x == 0).sum()) / n
        if abs(share - p) > 6 * (p * (1 - p) / n) ** 0.5 + 1 / n:
            return f"dropped {share:.4f} of the elements, expected {p}"
        return None
    return close_enough(torch, out, ref, tol)


# ----- helpers ----------------------------------------------------------------------------
def load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def close_enough(torch: Any, out: Any, ref: Any, tol: Any) -> str | None:
    if not isinstance(out, torch.Tensor) or tuple(out.shape) != tuple(ref.shape):
        return f"returned {type(out).__name__} {tuple(getattr(out, 'shape', ()))}, expected {tuple(ref.shape)}"
    got, want = out.double(), ref.double().to(out.device)
    bad = ~torch.isclose(got, want, atol=tol.atol, rtol=tol.rtol, equal_nan=True)
    if bool(bad.any()):
        err = float((got - want).abs().nan_to_num(float("inf")).max())
        return f"out of tolerance (max abs err {err:.3g})"
    return None


def time_one(timing: Any, fn: Callable, protocol: str, rep_ms: float) -> float:
    """Median ms of fn under one protocol."""
    if protocol == "engine":
        samples = timing.time_baseline(fn, 10, rep_ms)
    else:
        samples = timing.time_stock(fn, protocol, rep_ms)
    return timing.quantiles(samples)[0]


# ----- one drill --------------------------------------------------------------------------
def run_drill(drill_id: str, args: argparse.Namespace, deadline: float, log: Callable[[str], None]) -> dict:
    import torch

    from studio.drills.catalog import get_drill
    from studio.drills.harness import timing

    drill = get_drill(drill_id)
    spec = load(f"_peers_spec_{drill_id}", drill.spec_module)
    solution = getattr(load(f"_peers_sol_{drill_id}", drill.solution), drill.entry)
    liger, liger_why = liger_peer(drill_id)
    # row-wise drills: the model-like sweeps; the other memory-bound drills, and the compute-
    # bound ones (flash_attention, matmul, against SDPA / cuBLAS): the drill's own bench sizes
    points = [(name, shape) for name, shape in (sweeps.sweep(drill_id) or [("bench", s) for s in drill.bench_shapes])
              if (not args.sweeps or name in args.sweeps)
              and (not args.sizes or "x".join(map(str, shape)) in args.sizes)]
    flops_of = getattr(spec, "flops", None)
    report: dict[str, Any] = {"drill": drill_id, "liger": liger_why or "installed", "points": [],
                              "not_run": []}
    for sweep_name, shape in points:
        for dtype in args.dtypes:
            if dtype not in drill.tolerances:
                continue
            if time.monotonic() > deadline:
                report["not_run"].append({"sweep": sweep_name, "size": shape, "dtype": dtype})
                continue
            started = time.monotonic()
            case = {"name": "peers", "shape": shape, "dtype": dtype, "fill": "randn", "layout": "contiguous"}
            entry: dict[str, Any] = {"sweep": sweep_name, "size": shape, "dtype": dtype, "runs": {}, "errors": {}}
            try:
                inputs = spec.make_inputs(case, torch.Generator().manual_seed(1), torch.device("cuda"))
                entry["bytes"] = int(spec.bytes_moved(case))
                if flops_of is not None and drill.metric == "tflops":
                    entry["flops"] = int(flops_of(case))
                ref = spec.reference(*inputs)
                contenders: dict[str, Callable] = {peer_table.SOLUTION: solution, "torch": spec.baseline}
                try:
                    # A fresh compile for this shape: past dynamo's recompile limit a reused
                    # wrapper would quietly run eager code under the name torch.compile.
                    torch._dynamo.reset()
                    contenders["torch.compile"] = torch.compile(compile_target(drill_id, spec), dynamic=False)
                except Exception as exc:  # noqa: BLE001
                    entry["errors"]["torch.compile"] = f"{type(exc).__name__}: {exc}"
                if liger is not None:
                    contenders["liger"] = liger
                elif liger_why:
                    entry["errors"]["liger"] = liger_why
                tol = drill.tolerances[dtype]
                calls = {}
                for name, fn in contenders.items():
                    # Each its own copy of the inputs, made once, outside the timing: some write
                    # into them (AdamW's state; Liger's cross_entropy zeroes ignored rows, its
                    # rope rotates q in place)
                    own = tuple(t.clone() if isinstance(t, torch.Tensor) else t for t in inputs)
                    try:      # the first call compiles (Triton, Inductor): outside any timing
                        out = fn(*own)
                        torch.cuda.synchronize()
                        problem = (close_enough(torch, out, ref, tol) if name == peer_table.SOLUTION
                                   else peer_problem(torch, drill_id, out, ref, inputs, tol))
                        del out
                    except Exception as exc:  # noqa: BLE001
                        problem = f"{type(exc).__name__}: {str(exc)[:200]}"
                    if problem:
                        entry["errors"][name] = problem
                    else:
                        calls[name] = (lambda f=fn, a=own: f(*a))
                del ref
                for protocol in args.protocols:
                    entry["runs"][protocol] = {name: [] for name in calls}
                order = list(calls)
                for r in range(args.runs):
                    rotated = order[r % len(order):] + order[:r % len(order)]
                    for protocol in args.protocols:
                        for name in rotated:
                            try:
                                entry["runs"][protocol][name].append(time_one(timing, calls[name], protocol, args.rep_ms))
                            except Exception as exc:  # noqa: BLE001
                                entry["errors"][f"{name} ({protocol})"] = f"{type(exc).__name__}: {str(exc)[:200]}"
                del inputs, calls, own
            except torch.cuda.OutOfMemoryError as exc:
                entry["errors"]["point"] = f"out of GPU memory: {str(exc)[:120]}"
            except Exception as exc:  # noqa: BLE001 - one point fails, the sweep goes on
                entry["errors"]["point"] = f"{type(exc).__name__}: {exc}"
                entry["traceback"] = traceback.format_exc()[-2000:]
            torch.cuda.empty_cache()
            entry["seconds"] = round(time.monotonic() - started, 1)
            report["points"].append(entry)
            log(f"{drill_id} {sweep_name} {'x'.join(map(str, shape))} {dtype}: {entry['seconds']} s"
                + (f" errors {sorted(entry['errors'])}" if entry["errors"] else ""))
    return report


# ----- report -----------------------------------------------------------------------------
def tables(report: dict, protocols: list[str]) -> str:
    peers = ["torch", "torch.compile", "liger"]
    out = [f"## {report['drill']}", "", f"Liger-Kernel: {report['liger']}.", ""]
    for protocol in protocols:
        rows = []
        for p in report["points"]:
            runs = p.get("runs", {}).get(protocol, {})
            errors = {}      # "name (protocol)": that contender failed under that protocol only
            for key, why in p.get("errors", {}).items():
                name, _, only = key.partition(" (")
                if not only or only == f"{protocol})":
                    errors[peer_table.SOLUTION if name == "point" else name] = why
            rows.append(peer_table.judge_row(p["size"], p["dtype"], p["sweep"], runs, errors, p.get("bytes", 0),
                                             p.get("flops", 0)))
        out.append(peer_table.markdown(report["drill"], protocol, rows, peers))
    if report["not_run"]:
        out.append("Not run (time budget spent): "
                   + ", ".join(f"{'x'.join(map(str, n['size']))} {n['dtype']}" for n in report["not_run"]) + "\n")
    return "\n".join(out)


def merge(files: list[str], out: Path) -> int:
    """One report from several runs' JSON: the latest figure for every point."""
    drills: dict[str, dict] = {}
    sources = []
    for name in files:
        doc = json.loads(Path(name).read_text(encoding="utf-8"))
        header = doc["header"]
        sources.append(f"- `{Path(name).name}`: `{header['command']}` on {header['device']} (torch {header['torch']}, "
                       f"triton {header['triton']}), {header['date']}, copy bandwidth {header['copy_gbps']:.0f} GB/s")
        for report in doc["drills"]:
            merged = drills.setdefault(report["drill"], {"drill": report["drill"], "liger": report.get("liger", "-"),
                                                          "points": {}, "not_run": {}, "protocols": []})
            for p in header.get("protocols", []):     # a run's protocols are in its header
                if p not in merged["protocols"]:
                    merged["protocols"].append(p)
            for point in report["points"]:
                key = (point["sweep"], tuple(point["size"]), point["dtype"])
                merged["points"][key] = dict(point, source=Path(name).name)
                merged["not_run"].pop((tuple(point["size"]), point["dtype"]), None)
            for miss in report["not_run"]:
                key = (tuple(miss["size"]), miss["dtype"])
                if not any(k[1:] == key for k in merged["points"]):
                    merged["not_run"][key] = miss
            if report.get("liger") and report["liger"] != "-":
                merged["liger"] = report["liger"]
    md = ["# Reference solutions against their peers (#21)", "",
          "The latest figure for every point, merged from these runs (`python bench/peers.py --merge "
          + " ".join(Path(f).name for f in files) + "`):", "", *sources, "",
          "Interleaved runs per point: each contender timed once per run and protocol; noise = half the range "
          "of the run medians. Protocols: engine (L2 flushed by reading 256 MiB: clean L2; launch overhead "
          "included), do_bench (stock: memset flush, dirty L2), cudagraph (stock do_bench_cudagraph: no flush, "
          "launch overhead removed).", ""]
    for merged in drills.values():
        report = {"drill": merged["drill"], "liger": merged["liger"], "points": list(merged["points"].values()),
                  "not_run": list(merged["not_run"].values())}
        md.append(tables(report, merged["protocols"] or list(PROTOCOLS)))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(md), encoding="utf-8")
    print(f"wrote {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--drills", default="",
                        help="comma-separated drill ids (default: every memory-bound drill; "
                             f"also {', '.join(COMPUTE_DRILLS)} over their bench sizes)")
    parser.add_argument("--protocols", default=",".join(PROTOCOLS))
    parser.add_argument("--dtypes", default="float16,bfloat16")
    parser.add_argument("--sweeps", default="", help="only these sweeps (model_rows, long_rows, ...)")
    parser.add_argument("--sizes", default="", help="only these sizes (e.g. 16384x512,4096x512)")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per point (noise from their spread)")
    parser.add_argument("--rep-ms", type=float, default=50.0, help="timed ms per contender, run and protocol")
    parser.add_argument("--budget-s", type=float, default=540.0, help="no point starts after this many seconds")
    parser.add_argument("--out", default=str(REPO / "bench" / "results" / "peers.md"))
    parser.add_argument("--merge", nargs="+", metavar="JSON",
                        help="no GPU: merge earlier runs' .json (a later file's point replaces an earlier "
                             "one's: same drill, sweep, size and dtype) into one report at --out")
    args = parser.parse_args(argv)
    if args.merge:
        return merge(args.merge, Path(args.out))
    memory_bound = memory_bound_drills()
    args.drills = [d for d in args.drills.split(",") if d] or memory_bound
    args.protocols = [p for p in args.protocols.split(",") if p]
    args.dtypes = [d for d in args.dtypes.split(",") if d]
    args.sweeps = [s for s in args.sweeps.split(",") if s]
    args.sizes = [s for s in args.sizes.split(",") if s]
    unknown = [p for p in args.protocols if p not in PROTOCOLS] + [d for d in args.drills
                                                             if d not in memory_bound and d not in COMPUTE_DRILLS]
    if unknown or args.runs < 1:
        parser.error(f"unknown protocol, or not a one-process drill with sizes: {unknown}" if unknown
                     else "--runs must be >= 1")

    import torch
    import triton

    if not torch.cuda.is_available():
        print("bench/peers.py needs a CUDA GPU", file=sys.stderr)
        return 2
    started = time.monotonic()
    deadline = started + args.budget_s
    log = lambda m: print(f"[{time.monotonic() - started:6.1f}s] {m}", flush=True)  # noqa: E731
    from studio.drills.harness import timing

    copy_gbps = timing.measure_copy_gbps()
    reports = []
    for drill_id in args.drills:
        try:
            reports.append(run_drill(drill_id, args, deadline, log))
        except Exception as exc:  # noqa: BLE001 - a drill that cannot load: said, the rest go on
            reports.append({"drill": drill_id, "error": f"{type(exc).__name__}: {exc}", "points": [],
                            "not_run": [], "liger": "-"})
    header = {
        "command": "python bench/peers.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
        "cuda": torch.version.cuda, "python": platform.python_version(), "copy_gbps": copy_gbps,
        "runs": args.runs, "rep_ms": args.rep_ms, "protocols": args.protocols,
        "seconds": round(time.monotonic() - started, 1),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    md = ["# Reference solutions against their peers (#21)", "",
          f"`{header['command']}` on {header['device']} (torch {header['torch']}, triton {header['triton']}, "
          f"CUDA {header['cuda']}), {header['date']}, {header['seconds']} s. Copy bandwidth "
          f"{copy_gbps:.0f} GB/s. {args.runs} interleaved runs per point of {args.rep_ms:g} ms per contender "
          f"and protocol; noise = half the range of the run medians. Protocols: engine (L2 flushed by reading "
          f"256 MiB: clean L2; launch overhead included), do_bench (stock: memset flush, dirty L2), cudagraph "
          f"(stock do_bench_cudagraph: no flush, launch overhead removed).", ""]
    for report in reports:
        if report.get("error"):
            md.append(f"## {report['drill']}\n\nnot run: {report['error']}\n")
        else:
            md.append(tables(report, args.protocols))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(md), encoding="utf-8")
    out.with_suffix(".json").write_text(json.dumps({"header": header, "drills": reports}, indent=1), encoding="utf-8")
    log(f"wrote {out} and {out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
