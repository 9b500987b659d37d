"""The tables of bench/peers.py: a drill's reference solution against its best peer (#21).

Contenders (the solution, torch eager, torch.compile, Liger-Kernel where installed) are
timed interleaved in one process, over several runs; each run gives one median per
contender, point and protocol. Here, without torch:

- a contender's figure is the median of its run medians, and its noise is half the
  relative range of those run medians (two runs 10% apart: 5% noise);
- per point the best peer is the fastest peer; the ratio is best peer ms / solution ms
  (above 1: the solution is faster);
- a point is *met* when the ratio is at least 1, *met within noise* when it falls short
  of 1 by no more than the two contenders' noise added, and *short* otherwise; a point
  whose solution runs under LAUNCH_BOUND_MS is marked launch-bound (there a single run
  ranks nothing: stock do_bench moved by up to 3x between two runs on the H100).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

SOLUTION = "solution"
LAUNCH_BOUND_MS = 0.005


@dataclass
class Figure:
    ms: float                 # median of the run medians
    noise: float              # half the relative range of the run medians
    runs: int


@dataclass
class Row:
    size: list[int]
    dtype: str
    sweep: str
    solution: Figure | None
    peers: dict[str, Figure] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)     # contender -> why it has no figure
    best_peer: str | None = None
    ratio: float | None = None
    noise: float | None = None
    verdict: str = "n/a"      # met | met within noise | short | n/a
    launch_bound: bool = False
    gbps: float | None = None
    tflops: float | None = None


def figure(run_medians: list[float]) -> Figure | None:
    values = [float(v) for v in run_medians if v is not None and v > 0]
    if not values:
        return None
    mid = statistics.median(values)
    return Figure(ms=mid, noise=(max(values) - min(values)) / (2 * mid), runs=len(values))


def judge_row(size: list[int], dtype: str, sweep: str, runs: dict[str, list[float]],
              errors: dict[str, str] | None = None, nbytes: int = 0, flops: int = 0) -> Row:
    """One point: runs maps each contender (SOLUTION and the peers) to its run medians (ms)."""
    figures = {name: figure(values) for name, values in runs.items()}
    row = Row(size=list(size), dtype=dtype, sweep=sweep, solution=figures.pop(SOLUTION, None),
              peers={k: v for k, v in figures.items() if v is not None}, errors=dict(errors or {}))
    for name, value in figures.items():
        if value is None:
            row.errors.setdefault(name, "no timing")
    if row.solution is None:
        row.errors.setdefault(SOLUTION, "no timing")
        return row
    if nbytes:
        row.gbps = nbytes / (row.solution.ms * 1e-3) / 1e9
    if flops:
        row.tflops = flops / (row.solution.ms * 1e-3) / 1e12
    row.launch_bound = row.solution.ms < LAUNCH_BOUND_MS
    if not row.peers:
        return row
    row.best_peer, best = min(row.peers.items(), key=lambda kv: kv[1].ms)
    row.ratio = best.ms / row.solution.ms
    row.noise = row.solution.noise + best.noise
    if row.ratio >= 1.0:
        row.verdict = "met"
    elif row.ratio >= 1.0 - row.noise:
        row.verdict = "met within noise"
    else:
        row.verdict = "short"
    return row


def summary(rows: list[Row]) -> dict[str, int]:
    counts = {"met": 0, "met within noise": 0, "short": 0, "n/a": 0}
    for row in rows:
        counts[row.verdict] += 1
    return counts


def _cell(text: str) -> str:
    """Text for a Markdown table cell: a '|' would end the cell, a newline the row."""
    return text.replace("|", "\\|").replace("\n", " ")


def _us(ms: float | None) -> str:
    return "-" if ms is None else f"{ms * 1e3:.1f}"


def markdown(drill: str, protocol: str, rows: list[Row], peers: list[str]) -> str:
    """A table per drill and protocol: every contender's us (noise), the ratio and verdict."""
    counts = summary(rows)
    compute = any(row.tflops is not None for row in rows)     # a compute-bound drill: TFLOP/s
    lines = [f"### {drill} — protocol: {protocol}", "",
             f"{counts['met']} met, {counts['met within noise']} met within noise, "
             f"{counts['short']} short, {counts['n/a']} without a peer figure "
             f"(of {len(rows)} points; ratio = best peer time / solution time).", "",
             "| sweep | size | dtype | solution us (noise) | " + " | ".join(f"{p} us" for p in peers)
             + f" | best peer | ratio | verdict | {'TFLOP/s' if compute else 'GB/s'} |",
             "|---|---|---|---|" + "---|" * len(peers) + "---|---|---|---|"]
    for row in rows:
        sol = (f"{_us(row.solution.ms)} (±{row.solution.noise * 100:.1f}%)" if row.solution
               else f"error: {_cell(row.errors.get(SOLUTION, '?')[:80])}")
        cells = []
        for peer in peers:
            fig = row.peers.get(peer)
            cells.append(_us(fig.ms) if fig else ("n/a" if peer not in row.errors else
                                                  f"n/a ({_cell(row.errors[peer][:60])})"))
        ratio = "-" if row.ratio is None else f"{row.ratio:.2f}"
        verdict = row.verdict + (" (launch-bound: < 5 us)" if row.launch_bound else "")
        if compute:
            gbps = "-" if row.tflops is None else f"{row.tflops:.0f}"
        else:
            gbps = "-" if row.gbps is None else f"{row.gbps:.0f}"
        lines.append(f"| {row.sweep} | {'x'.join(map(str, row.size))} | {row.dtype} | {sol} | "
                     + " | ".join(cells) + f" | {row.best_peer or '-'} | {ratio} | {verdict} | {gbps} |")
    return "\n".join(lines) + "\n"
