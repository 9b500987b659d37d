"""A bench run's points as CSV and as a Markdown table for a pull-request description.

Works on the run's JSON document (bench_cli.summary): no torch, no Qt.
"""

from __future__ import annotations

import csv
import io


def _us(ms) -> str:
    return f"{ms * 1e3:.1f}" if isinstance(ms, (int, float)) else ""


def _num(value, fmt: str) -> str:
    return format(value, fmt) if isinstance(value, (int, float)) else ""


def baseline_names(points: list[dict]) -> list[str]:
    names: list[str] = []
    for p in points:
        for name in p.get("baselines") or {}:
            if name not in names:
                names.append(name)
    return names


def to_csv(doc: dict) -> str:
    points = doc.get("points") or []
    names = baseline_names(points)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["size", "dtype", "passed", "max_abs_err", "kernel_us", "p20_us", "p80_us", "gbps",
                     "tflops", "pct_of_peak", "protocol"] + [f"{n}_us" for n in names])
    for p in points:
        base = p.get("baselines") or {}
        writer.writerow(["x".join(map(str, p["size"])), p["dtype"], p["passed"], _num(p.get("max_abs_err"), ".3g"),
                         _us(p.get("ms")), _us(p.get("p20")), _us(p.get("p80")), _num(p.get("gbps"), ".1f"),
                         _num(p.get("tflops"), ".2f"), _num(p.get("pct_of_peak"), ".1f"), p.get("protocol") or ""]
                        + [_us((base.get(n) or {}).get("ms")) for n in names])
    return out.getvalue()


def to_markdown(doc: dict, compare: dict | None = None) -> str:
    """A table ready to paste into a pull request, with what it was measured on."""
    points = doc.get("points") or []
    names = baseline_names(points)
    speedups = {(tuple(c["size"]), c["dtype"]): c for c in (compare or {}).get("points", [])}
    head = ["size", "dtype", "ok", "µs (p20–p80)", "GB/s"] + [f"{n} µs" for n in names]
    if compare:
        head.append(f"vs run #{compare['run_id']}")
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for p in points:
        base = p.get("baselines") or {}
        timing = (f"{_us(p.get('ms'))} ({_us(p.get('p20'))}–{_us(p.get('p80'))})" if p.get("ms") else "–")
        row = ["x".join(map(str, p["size"])), p["dtype"], "✓" if p["passed"] else "✗", timing,
               _num(p.get("gbps"), ".0f") or "–"] + [_us((base.get(n) or {}).get("ms")) or "–" for n in names]
        if compare:
            c = speedups.get((tuple(p["size"]), p["dtype"]))
            row.append(f"{c['speedup']:.2f}x {c['verdict']}" if c else "–")
        lines.append("| " + " | ".join(row) + " |")
    versions = doc.get("versions") or {}
    lines.append("")
    lines.append(f"{doc.get('device') or 'unknown device'}, protocol {doc.get('protocol', 'engine')}, "
                 f"torch {versions.get('torch') or '?'}, Triton {versions.get('triton') or '?'}"
                 + (f"; run #{doc['run_id']}" if doc.get("run_id") else "") + ".")
    return "\n".join(lines) + "\n"
