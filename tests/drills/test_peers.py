"""Model-like sweeps, their bytes models and bench/peers.py's table logic (#21), on the CPU.

The GPU figures come from `python bench/peers.py` on a GPU (bench/results/peers.md); here
the sweep definitions and bytes are checked against hand computations and the table logic
against synthetic timings.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from studio.drills import peer_table, sweeps
from studio.drills.catalog import get_drill

REPO = Path(__file__).resolve().parents[2]


# ----- sweeps -------------------------------------------------------------------------------
def test_model_rows_cover_decode_to_long_prefill_and_small_to_70b_hidden():
    rows = sweeps.model_rows()
    assert len(rows) == 6 * 6
    assert [1, 512] in rows and [16384, 16384] in rows and [4096, 8192] in rows
    assert {t for t, _ in rows} == {1, 16, 128, 1024, 4096, 16384}
    assert {h for _, h in rows} == {512, 1024, 2048, 4096, 8192, 16384}


def test_long_rows_vocabularies_and_attention_rows():
    assert sweeps.long_rows() == [[1024, 32768], [256, 131072]]
    assert sweeps.vocab_rows() == [[4096, 32000], [4096, 50257], [4096, 128256], [4096, 152064], [4096, 256000]]
    # softmax over attention scores: 16 heads x seq queries, one row of seq scores each
    assert sweeps.attention_rows() == [[2048, 128], [4096, 256], [8192, 512], [16384, 1024],
                                       [32768, 2048], [65536, 4096], [131072, 8192]]


def test_each_drill_sweep_lists_every_point_once():
    softmax = sweeps.sweep("softmax")
    assert len(softmax) == 36 + 2 + 7 - 1          # [16384, 1024] is a model row and an attention row
    assert ("long_rows", [256, 131072]) in softmax and ("attention_rows", [131072, 8192]) in softmax
    assert [s for _, s in sweeps.sweep("cross_entropy")] == sweeps.vocab_rows()
    assert len(sweeps.sweep("rmsnorm")) == 38 and sweeps.sweep("vector_add") == []
    for drill_id in sweeps.DRILL_SWEEPS:
        assert get_drill(drill_id).ok
        assert "memory-bound" in get_drill(drill_id).tags


# ----- bytes models at sweep points, by hand ------------------------------------------------
def _spec(drill_id):
    spec = importlib.util.spec_from_file_location(f"_peers_spec_{drill_id}", get_drill(drill_id).spec_module)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("drill_id, shape, dtype, expected", [
    # x read + y written, 1024 x 32768 bf16: 2 * 32 Mi elements * 2 B = 128 MiB
    ("softmax", [1024, 32768], "bfloat16", 2 * 1024 * 32768 * 2),
    # attention scores at seq 8192: 131072 x 8192 fp16 read and written = 4 GiB
    ("softmax", [131072, 8192], "float16", 2 * 131072 * 8192 * 2),
    # one decode token, hidden 4096, fp16: x + y (2 * 8 KiB) + weight (8 KiB)
    ("rmsnorm", [1, 4096], "float16", 2 * 4096 * 2 + 4096 * 2),
    # 16384 tokens x 16384 hidden fp16: x + y (2 * 512 MiB) + weight + bias (2 * 32 KiB)
    ("layernorm", [16384, 16384], "float16", 2 * 16384 * 16384 * 2 + 2 * 16384 * 2),
    # Qwen2 vocabulary: 4096 x 152064 bf16 logits + int64 targets + fp32 losses
    ("cross_entropy", [4096, 152064], "bfloat16", 4096 * 152064 * 2 + 4096 * 8 + 4096 * 4),
    # Gemma vocabulary in fp32: 4096 x 256000 x 4 B = 4 GB of logits
    ("cross_entropy", [4096, 256000], "float32", 4096 * 256000 * 4 + 4096 * 8 + 4096 * 4),
])
def test_bytes_models_at_sweep_points(drill_id, shape, dtype, expected):
    pytest.importorskip("torch")
    assert _spec(drill_id).bytes_moved({"shape": shape, "dtype": dtype}) == expected


# ----- table logic on synthetic timings -----------------------------------------------------
def test_figure_is_median_of_runs_with_half_range_noise():
    fig = peer_table.figure([0.100, 0.110, 0.090])
    assert fig.ms == pytest.approx(0.100) and fig.noise == pytest.approx(0.10) and fig.runs == 3
    assert peer_table.figure([]) is None and peer_table.figure([None, 0.0]) is None


def test_point_verdicts_met_within_noise_short():
    met = peer_table.judge_row([4096, 4096], "float16", "model_rows",
                               {"solution": [0.040, 0.040], "torch": [0.060, 0.061], "liger": [0.044, 0.044]})
    assert met.best_peer == "liger" and met.ratio == pytest.approx(1.1) and met.verdict == "met"
    # 2% slower than torch.compile, with 1% + 1.5% noise: met within noise
    close = peer_table.judge_row([1024, 32768], "bfloat16", "long_rows",
                                 {"solution": [0.0102, 0.0098], "torch.compile": [0.00995, 0.00965]})
    assert close.ratio < 1 and close.verdict == "met within noise"
    # 0.52x of the best peer: short, whatever the noise
    short = peer_table.judge_row([1024, 32768], "float16", "long_rows",
                                 {"solution": [0.100, 0.101], "liger": [0.052, 0.052]}, nbytes=128 << 20)
    assert short.verdict == "short" and short.ratio == pytest.approx(0.52 / 1.005, rel=1e-3)
    assert short.gbps == pytest.approx((128 << 20) / 0.1005e-3 / 1e9)


def test_launch_bound_and_missing_figures():
    tiny = peer_table.judge_row([1, 512], "float16", "model_rows", {"solution": [0.003], "torch": [0.004]})
    assert tiny.launch_bound and tiny.verdict == "met"
    alone = peer_table.judge_row([1, 512], "float16", "model_rows", {"solution": [0.01], "torch": []},
                                 errors={"liger": "Liger-Kernel not installed"})
    assert alone.verdict == "n/a" and alone.errors == {"liger": "Liger-Kernel not installed", "torch": "no timing"}
    broken = peer_table.judge_row([1, 512], "float16", "model_rows", {"torch": [0.01]},
                                  errors={"solution": "out of tolerance"})
    assert broken.solution is None and broken.verdict == "n/a"
    assert peer_table.summary([tiny, alone, broken]) == {"met": 1, "met within noise": 0, "short": 0, "n/a": 2}


def test_markdown_table_names_protocol_peers_and_verdicts():
    rows = [peer_table.judge_row([4096, 4096], "float16", "model_rows",
                                 {"solution": [0.040, 0.042], "torch": [0.060], "torch.compile": [0.050]}),
            peer_table.judge_row([1, 512], "float16", "model_rows", {"solution": [0.003], "torch": [0.0025]},
                                 errors={"liger": "Liger-Kernel not installed (liger_kernel)"})]
    text = peer_table.markdown("softmax", "cudagraph", rows, ["torch", "torch.compile", "liger"])
    assert text.startswith("### softmax — protocol: cudagraph")
    assert "1 met, 0 met within noise, 1 short, 0 without a peer figure (of 2 points" in text
    assert "| model_rows | 4096x4096 | float16 | 41.0 (±2.4%) | 60.0 | 50.0 | n/a | torch.compile | 1.22 | met |" in text
    assert "short (launch-bound: < 5 us)" in text and "n/a (Liger-Kernel not installed" in text


def _peers_module():
    spec = importlib.util.spec_from_file_location("_bench_peers", REPO / "bench" / "peers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_peers_report_tables_per_protocol_from_a_synthetic_run():
    peers = _peers_module()
    report = {"drill": "rmsnorm", "liger": "Liger-Kernel not installed (liger_kernel)", "not_run": [
        {"sweep": "long_rows", "size": [256, 131072], "dtype": "bfloat16"}], "points": [
        {"sweep": "model_rows", "size": [4096, 4096], "dtype": "float16", "bytes": 2 * 4096 * 4096 * 2 + 8192,
         "errors": {"liger": "Liger-Kernel not installed", "torch.compile (cudagraph)": "RuntimeError: capture"},
         "runs": {"engine": {"solution": [0.030, 0.031, 0.030], "torch": [0.050, 0.049, 0.051],
                             "torch.compile": [0.032, 0.033, 0.032]},
                  "cudagraph": {"solution": [0.025, 0.025, 0.026], "torch": [0.040, 0.040, 0.041],
                                "torch.compile": []}}}]}
    text = peers.tables(report, ["engine", "cudagraph"])
    assert "### rmsnorm — protocol: engine" in text and "### rmsnorm — protocol: cudagraph" in text
    engine, graph = text.split("### rmsnorm — protocol: cudagraph")
    assert "| torch.compile | 1.07 | met |" in engine
    assert "capture" in graph and "| torch | 1.60 | met |" in graph
    assert "Not run (time budget spent): 256x131072 bfloat16" in text


def test_peers_cli_refuses_unknown_drills_and_protocols():
    peers = _peers_module()
    with pytest.raises(SystemExit) as exc:
        peers.main(["--drills", "ring_allreduce"])      # N ranks: timed by its own NCCL sweep
    assert exc.value.code == 2
    with pytest.raises(SystemExit):
        peers.main(["--protocols", "wallclock"])
    assert peers.liger_peer("transpose")[0] is None


def test_error_text_cannot_break_the_table():
    row = peer_table.judge_row([4, 300], "float32", "model_rows", {"solution": [0.01]},
                               errors={"torch.compile": "TypeError: unsupported operand type(s) for |: 'type'\nx"})
    line = peer_table.markdown("softmax", "engine", [row], ["torch.compile"]).splitlines()[-1]
    assert line.count("|") - line.count("\\|") == 10 and "for \\|: 'type' x" in line   # 9 cells


def test_compute_bound_rows_report_tflops_instead_of_bandwidth():
    """flash_attention and matmul are raced over their bench sizes against SDPA / cuBLAS; their
    table's last column is TFLOP/s of the solution (a matmul 4096^3 in 0.1 ms: 1374 TFLOP/s)."""
    flops = 2 * 4096 ** 3
    row = peer_table.judge_row([4096, 4096, 4096], "bfloat16", "bench",
                               {"solution": [0.100, 0.100, 0.100], "torch": [0.097, 0.098, 0.097]},
                               nbytes=3 * 4096 * 4096 * 2, flops=flops)
    assert row.tflops == pytest.approx(flops / 1e-4 / 1e12) and row.verdict == "short"
    table = peer_table.markdown("matmul", "engine", [row], ["torch"])
    assert "| TFLOP/s |" in table and "GB/s" not in table and table.rstrip().endswith("| 1374 |")
    peers = _peers_module()
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():     # accepted (no parser error), then stopped: no GPU here
        assert peers.main(["--drills", "matmul,flash_attention", "--budget-s", "1"]) == 2
    assert peers.COMPUTE_DRILLS == ("flash_attention", "matmul")


def test_merge_keeps_the_latest_figure_per_point(tmp_path):
    """`peers.py --merge`: a later run's point replaces the earlier one (same drill, sweep, size,
    dtype), points only in the earlier run stay, and a point not run earlier but run later is
    no longer listed as not run."""
    peers = _peers_module()

    def run(path, points, not_run=()):
        header = {"command": f"python bench/peers.py # {path}", "device": "GPU X", "torch": "t", "triton": "tr",
                  "date": "2026-11-28", "copy_gbps": 4000.0, "protocols": ["engine"]}
        drills = [{"drill": "rmsnorm", "liger": "installed", "points": [
            {"sweep": s, "size": size, "dtype": "bfloat16", "bytes": 1000,
             "runs": {"engine": {"solution": [sol] * 3, "torch": [0.010] * 3}}, "errors": {}}
            for s, size, sol in points], "not_run": [{"sweep": "long_rows", "size": n, "dtype": "bfloat16"}
                                                    for n in not_run]}]
        file = tmp_path / path
        file.write_text(json.dumps({"header": header, "drills": drills}))
        return str(file)

    first = run("a.json", [("model_rows", [1, 4096], 0.020), ("model_rows", [16, 4096], 0.008)],
                not_run=[[256, 131072]])
    second = run("b.json", [("model_rows", [1, 4096], 0.005), ("long_rows", [256, 131072], 0.009)])
    out = tmp_path / "peers.md"
    assert peers.main(["--merge", first, second, "--out", str(out)]) == 0
    text = out.read_text()
    assert "| model_rows | 1x4096 | bfloat16 | 5.0 (±0.0%) | 10.0 | n/a | n/a | torch | 2.00 | met |" in text
    assert "| model_rows | 16x4096 | bfloat16 | 8.0" in text and "| long_rows | 256x131072 |" in text
    assert "Not run" not in text and "`a.json`" in text and "`b.json`" in text


# ----- every memory-bound drill, and how a peer's answer is checked ------------------------------
def test_every_one_process_gbps_drill_is_raced_and_no_parallelism_or_compute_drill():
    peers = _peers_module()
    drills = peers.memory_bound_drills()
    for d in ("vector_add", "transpose", "rope", "residual_rmsnorm", "layernorm_backward", "dropout",
              "fp8_quant", "fused_adamw", "embedding_backward", "softmax", "cross_entropy", "topk_rows"):
        assert d in drills
    for d in ("ring_allreduce", "moe_all_to_all", "zero1_adam", "matmul", "flash_attention"):
        assert d not in drills
    for d in drills:    # each has points to time: its model-like sweeps or its bench sizes
        assert sweeps.sweep(d) or get_drill(d).bench_shapes, d


def _small_inputs(drill_id, dtype, seed=1):
    torch = pytest.importorskip("torch")
    peers = _peers_module()
    drill = get_drill(drill_id)
    spec = peers.load(f"_t_{drill_id}", drill.spec_module)
    shape = {"moe_gating": [64, 8], "embedding_backward": [256, 1000, 64], "int4_wo_matmul": [4, 256, 256],
             "int8_wo_matmul": [4, 256, 256], "paged_attention_decode": [1, 4, 2, 64, 256],
             "flash_decoding": [1, 4, 2, 64, 256], "causal_conv1d": [1, 64, 256], "rope": [1, 64, 4, 64]}.get(
        drill_id, [min(v, 256) for v in (drill.bench_shapes or [[16, 256]])[0]])
    case = {"name": "peers", "shape": shape, "dtype": dtype, "fill": "randn", "layout": "contiguous"}
    inputs = spec.make_inputs(case, torch.Generator().manual_seed(seed), torch.device("cpu"))
    return torch, peers, spec, inputs, spec.reference(*inputs), drill.tolerances[dtype]


@pytest.mark.parametrize("drill_id", [d for d in _peers_module().memory_bound_drills()])
def test_each_drills_torch_baseline_passes_the_peer_check_on_the_cpu(drill_id):
    """The check peers.py makes of the torch peer, at a small size in float32: a baseline whose
    answer changed form (a tuple, y without h) would leave the drill's table without torch."""
    torch, peers, spec, inputs, ref, tol = _small_inputs(drill_id, "float32")
    own = tuple(t.clone() if isinstance(t, torch.Tensor) else t for t in inputs)
    assert peers.peer_problem(torch, drill_id, spec.baseline(*own), ref, inputs, tol) is None


def test_peer_check_reads_other_forms_of_the_answer_and_still_refuses_wrong_ones():
    torch, peers, spec, inputs, ref, tol = _small_inputs("residual_rmsnorm", "float32")
    x, r, w, eps = inputs
    h = x + r
    y = torch.nn.functional.rms_norm(h, (x.shape[-1],), w, eps)
    assert peers.peer_problem(torch, "residual_rmsnorm", (h, y), ref, inputs, tol) is None      # two tensors
    assert "out of tolerance" in peers.peer_problem(torch, "residual_rmsnorm", (y, h), ref, inputs, tol)
    assert "out of tolerance" in peers.peer_problem(torch, "residual_rmsnorm", (h, y * 1.01), ref, inputs, tol)
    assert "expected (2, " in peers.peer_problem(torch, "residual_rmsnorm", y, ref, inputs, tol)  # y alone: h unwritten

    torch, peers, spec, inputs, ref, tol = _small_inputs("layernorm_backward", "float32")
    dx, dw, db = spec.baseline(*inputs)
    assert peers.peer_problem(torch, "layernorm_backward", (dx, dw, db), ref, inputs, tol) is None
    assert peers.peer_problem(torch, "layernorm_backward", (dx, db, dw), ref, inputs, tol) is not None

    torch, peers, spec, inputs, ref, tol = _small_inputs("moe_gating", "float32")
    out = list(spec.baseline(*inputs))
    assert peers.peer_problem(torch, "moe_gating", tuple(out), ref, inputs, tol) is None
    out[0] = out[0].flip(-1)        # the top-k weights in the wrong order
    assert peers.peer_problem(torch, "moe_gating", tuple(out), ref, inputs, tol) is not None


def test_peer_check_of_topk_accepts_either_index_of_a_tie_but_not_a_smaller_value():
    torch = pytest.importorskip("torch")
    peers = _peers_module()
    tol = get_drill("topk_rows").tolerances["float32"]
    x = torch.tensor([[1.0, 5.0, 3.0, 5.0, 2.0]])
    ref = torch.tensor([[1, 3, 2]])
    assert peers.peer_problem(torch, "topk_rows", torch.tensor([[3, 1, 2]]), ref, (x, 3), tol) is None
    assert "out of tolerance" in peers.peer_problem(torch, "topk_rows", torch.tensor([[1, 3, 4]]), ref, (x, 3), tol)


def test_peer_check_of_dropout_wants_zeros_or_scaled_inputs_in_the_right_share():
    torch, peers, spec, inputs, ref, tol = _small_inputs("dropout", "float32")
    x, p = inputs[0], float(inputs[1])
    x = torch.randn(256, 256, generator=torch.Generator().manual_seed(3))
    inputs = (x, p, *inputs[2:])
    torch.manual_seed(0)
    good = torch.nn.functional.dropout(x, p, training=True)
    assert peers.peer_problem(torch, "dropout", good, None, inputs, tol) is None
    assert "dropped" in peers.peer_problem(torch, "dropout", x / (1 - p), None, inputs, tol)      # nothing dropped
    assert "neither 0" in peers.peer_problem(torch, "dropout", torch.where(good == 0, good, x), None, inputs, tol)
    keep_more = torch.where(torch.rand(x.shape) < p / 2, torch.zeros_like(x), x / (1 - p))
    assert "dropped" in peers.peer_problem(torch, "dropout", keep_more, None, inputs, tol)


@pytest.mark.parametrize("grad_dtype", ["float32", "bfloat16"])
def test_fused_adamw_compile_target_is_the_same_update_in_plain_ops(grad_dtype):
    """torch._fused_adamw_ does not compile (functionalization assert), so peers.py compiles the
    update written in torch ops: it must be AdamW's update, checked as the torch peer is, and
    every other drill compiles its own baseline."""
    torch, peers, spec, inputs, ref, tol = _small_inputs("fused_adamw", grad_dtype)
    target = peers.compile_target("fused_adamw", spec)
    assert target is peers.adamw_in_torch_ops
    own = tuple(t.clone() if isinstance(t, torch.Tensor) else t for t in inputs)
    assert peers.peer_problem(torch, "fused_adamw", target(*own), ref, inputs, tol) is None
    # the moments are updated in place as well: a kernel that left them would not be AdamW
    assert torch.allclose(own[2].double(), ref[1], atol=tol.atol, rtol=tol.rtol)
    assert torch.allclose(own[3].double(), ref[2], atol=tol.atol, rtol=tol.rtol)
    wrong = tuple(t.clone() if isinstance(t, torch.Tensor) else t for t in inputs)
    wrong = wrong[:4] + (wrong[4] + 1,) + wrong[5:]          # another step's bias corrections
    assert peers.peer_problem(torch, "fused_adamw", target(*wrong), ref, inputs, tol) is not None
    assert peers.compile_target("rmsnorm", spec) is spec.baseline
