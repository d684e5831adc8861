"""Writing the results: JSON (everything), a markdown table, and a PNG chart.

Layer: tools (bench/), above the generator: imports the generator, the generated packages, bench's
own modules and the peers' libraries; the generator never imports it.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench.ops import C_KERNELS, CHART_OPS
from bench.timing import format_ns

OVERHEAD_GOAL_NS = 150  # the first targets (docs/performance.md): Python overhead per call on G1 addition


def write_json(path: Path, meta: dict, rows: list[dict], levels: dict | None = None) -> None:
    data = {"meta": meta, "results": rows, "c_and_overhead": levels or {}}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _ratio(row: dict) -> str:
    return "n/a" if row.get("ratio") is None else f"{row['ratio']:.2f}"


def _ratio_fastest(row: dict) -> str:
    """ours / best peer on the fastest batches (both least disturbed by other processes)."""
    ours = (row.get("ours") or {}).get("min_ns")
    peers = [info["min_ns"] for info in row["peers"].values() if info.get("min_ns")]
    return f"{ours / min(peers):.2f}" if ours and peers else "n/a"


def _curves_measured(rows: list[dict]) -> list[str]:
    return [
        curve
        for curve in dict.fromkeys(r["curve"] for r in rows)
        if any(r.get("ours") or r.get("best_peer") for r in rows if r["curve"] == curve)
    ]


def _python_table(rows: list[dict]) -> list[str]:
    lines = [
        "| curve | op | ours | ours, fastest batch | best peer | peer | ratio | ratio, fastest | all peers (medians) |",
        "|---|---|---:|---:|---:|---|---:|---:|---|",
    ]
    measured = set(_curves_measured(rows))
    for curve in dict.fromkeys(r["curve"] for r in rows):
        if curve not in measured:
            lines.append(f"| {curve} | (all) | n/a | n/a | n/a | — | n/a | n/a | |")
    for row in rows:
        if row["curve"] not in measured:
            continue
        ours = format_ns(row["ours"]["median_ns"]) if row.get("ours") else "n/a"
        fastest = format_ns(row["ours"].get("min_ns")) if row.get("ours") else "n/a"
        best = format_ns(row["best_peer_ns"]) if row.get("best_peer") else "n/a"
        peer = row.get("best_peer") or "—"
        others = ", ".join(
            f"{name} {format_ns(info['median_ns'])}" if info.get("median_ns") else f"{name} failed"
            for name, info in row["peers"].items()
        )
        lines.append(
            f"| {row['curve']} | {row['op']} | {ours} | {fastest} | {best} | {peer} | {_ratio(row)} | "
            f"{_ratio_fastest(row)} | {others} |"
        )
    return lines


def _c_columns(levels: dict) -> list[tuple[str, str, dict]]:
    return [
        (curve, target, result)
        for curve, level in levels.items()
        for target, result in level.get("c", {}).items()
        if result.get("kernels")
    ]


def _kernel_rows(columns: list, cell) -> list[str]:
    lines = [
        "| kernel | " + " | ".join(f"{curve} {target}" for curve, target, _ in columns) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for kernel, label in C_KERNELS.items():
        cells = [cell(result["kernels"].get(kernel)) for _, _, result in columns]
        if any(c != "—" for c in cells):
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def _count(n: float) -> str:
    if n >= 1e6:
        return f"{n / 1e6:.2f} M"
    if n >= 1e4:
        return f"{n / 1e3:.1f} k"
    return f"{n:.0f}"


def _c_tables(levels: dict) -> list[str]:
    columns = _c_columns(levels)
    if not columns:
        return []
    lines = ["Median time per call:", ""]
    lines += _kernel_rows(columns, lambda k: format_ns(k["median_ns"]) if k else "—")
    lines += [
        "",
        "Fastest run (the least disturbed by other processes; kernels slower than a scheduler time slice",
        "are disturbed in most runs on a busy machine, so their medians above overstate them):",
        "",
    ]
    lines += _kernel_rows(columns, lambda k: format_ns(k["min_ns"]) if k else "—")
    if any("instructions" in k for _, _, r in columns for k in r["kernels"].values()):
        lines += ["", "Instructions per call (valgrind --tool=callgrind; independent of the machine's load):", ""]
        lines += _kernel_rows(columns, lambda k: _count(k["instructions"]) if k and "instructions" in k else "—")
    fields = {
        curve: next((r.get("fields") for r in level.get("c", {}).values() if r.get("fields")), None)
        for curve, level in levels.items()
    }
    names = [f"{curve}: Fq = {f.get('fq')}, GT field = {f.get('fk')}" for curve, f in fields.items() if f]
    if names:
        lines += ["", "Fields: " + "; ".join(names) + " (no twist-field rows where Fq = Fp)."]
    errors = [
        f"- {curve} {target}: {(result.get('error') or result.get('instructions_error')).splitlines()[0]}"
        for curve, level in levels.items()
        for target, result in level.get("c", {}).items()
        if result.get("error") or result.get("instructions_error")
    ]
    errors += [f"- {curve}: {level['c_error']}" for curve, level in levels.items() if level.get("c_error")]
    if errors:
        lines += ["", "C microbenchmark failures:", "", *errors]
    return lines


def _overhead_table(levels: dict) -> list[str]:
    entries = [(curve, level["python_overhead"]) for curve, level in levels.items() if level.get("python_overhead")]
    if not entries:
        return []
    lines = [
        "| curve | module target | C g1_add | Python `P + Q` | timing loop | overhead (medians) "
        f"| overhead (fastest) | goal ≤ {OVERHEAD_GOAL_NS} ns (fastest) | `-P` (whole call) |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|",
    ]
    for curve, e in entries:
        if e.get("error"):
            lines.append(f"| {curve} | | | {e['error']} | | | | | |")
            continue
        over, low = e.get("overhead_ns"), e.get("overhead_min_ns")
        if low is None:
            verdict = "n/a"
        elif low < 0 or over < 0:
            verdict = "no verdict (negative: load noise)"
        else:
            verdict = "met" if low <= OVERHEAD_GOAL_NS else "not met"
        lines.append(
            f"| {curve} | {e['target']} | {format_ns(e.get('c_ns'))} | {format_ns(e['python_ns'])} | "
            f"{format_ns(e['loop_ns'])} | {format_ns(over) if over is not None else 'n/a'} | "
            f"{format_ns(low) if low is not None else 'n/a'} | {verdict} | "
            f"{format_ns(e['neg_ns']) if e.get('neg_ns') is not None else 'n/a'} |"
        )
    return lines


def _find(rows: list[dict], curve: str, op: str) -> dict | None:
    return next((r for r in rows if r["curve"] == curve and r["op"] == op), None)


def summary_lines(meta: dict, rows: list[dict], levels: dict, targets: tuple[str, ...] | None = None) -> list[str]:
    """The short tables of the README: pairings through Python, key C kernels (of ``targets``, or
    every target measured), Python overhead."""
    curves = _curves_measured(rows)

    def ours(curve: str, op: str) -> str:
        row = _find(rows, curve, op)
        if not (row and row.get("ours")):
            return "n/a"
        return f"{format_ns(row['ours']['median_ns'])} / {format_ns(row['ours'].get('min_ns'))}"

    def peers_of(curve: str, op: str) -> str:
        row = _find(rows, curve, op)
        if not row:
            return "—"
        timed = sorted((info["median_ns"], name) for name, info in row["peers"].items() if info.get("median_ns"))
        return ", ".join(f"{name} {format_ns(t)}" for t, name in timed) or "—"

    def ratio(curve: str, op: str) -> str:
        row = _find(rows, curve, op)
        return _ratio(row) if row else "n/a"

    def ratio_fastest(curve: str, op: str) -> str:
        row = _find(rows, curve, op)
        return _ratio_fastest(row) if row else "n/a"

    lines = [
        "| curve: median / fastest batch | pairing | Miller loop | final exp. | peers (pairing, medians) "
        "| ratio to best | ratio, fastest |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for curve in curves:
        lines.append(
            f"| {curve} | {ours(curve, 'pairing')} | {ours(curve, 'miller_loop')} | "
            f"{ours(curve, 'final_exponentiation')} | {peers_of(curve, 'pairing')} | {ratio(curve, 'pairing')} | "
            f"{ratio_fastest(curve, 'pairing')} |"
        )
    columns = [c for c in _c_columns(levels) if targets is None or c[1] in targets]
    if columns:
        keys = ("fp_mul", "fq_mul", "g1_add_affine", "g2_add_affine", "miller_loop", "final_exp", "pairing")
        lines += [
            "",
            "| C kernel: median / fastest run (instructions) | "
            + " | ".join(f"{c} {t}" for c, t, _ in columns)
            + " |",
            "|---|" + "---:|" * len(columns),
        ]
        for key in keys:
            cells = []
            for _, _, result in columns:
                k = result["kernels"].get(key)
                if not k:
                    cells.append("—")
                    continue
                count = f" ({_count(k['instructions'])})" if "instructions" in k else ""
                cells.append(f"{format_ns(k['median_ns'])} / {format_ns(k['min_ns'])}{count}")
            lines.append(f"| {C_KERNELS[key]} | " + " | ".join(cells) + " |")
    overhead = _overhead_table(levels)
    if overhead:
        lines += ["", *overhead]
    return lines


def write_markdown(path: Path, meta: dict, rows: list[dict], levels: dict | None = None) -> None:
    levels = levels or {}
    load = meta.get("load_average_at_start")
    load_text = f" · load average at start {load[0]:.2f}" if load else ""
    lines = [
        "# pairforge benchmarks",
        "",
        f"{meta['date']} · Python {meta['python']} · {meta['cpu']} ({meta.get('cpu_count')} CPUs){load_text} · "
        f"{'quick run' if meta['quick'] else 'full run'}"
        + (f" · {meta['duration_s']:.0f} s" if meta.get("duration_s") else ""),
        "",
        "These machines are shared and noisy: compare ratios within one run, not times across runs.",
        "Python modules measured: "
        + (", ".join(f"{c} ({t})" for c, t in meta.get("module_targets", {}).items()) or "none")
        + ".",
        "",
        "## Summary",
        "",
        *summary_lines(meta, rows, levels),
        "",
        "## Through the Python API",
        "",
        "Median time per call: each operation timed in batches of about 0.5 ms (single calls when slower),",
        "median over the batches.",
        "*ratio* = ours / best peer (medians): below 1 we are faster. The fastest batch is the least",
        "disturbed by other processes: where it is far below the median, the machine was busy; *ratio,",
        "fastest* compares the fastest batches of ours and of the peers.",
        "",
        *_python_table(rows),
    ]
    c_lines = _c_tables(levels)
    if c_lines:
        lines += [
            "",
            "## C kernels (no Python)",
            "",
            "bench/c/bench_kernels.c compiled with the interpreter's CFLAGS and generator/build.py's flags (as",
            "the extension module is), per target; each kernel in a dependent chain (latency), median of the runs.",
            "",
            *c_lines,
        ]
    o_lines = _overhead_table(levels)
    if o_lines:
        lines += [
            "",
            "## Python overhead of a small operation (G1 addition)",
            "",
            "`P + Q` timed with timeit (no function call around it) minus the empty timing loop, minus the",
            "C `g1_add` (the kernel `P + Q` calls: Jacobian + Jacobian; independent calls on the same inputs,",
            "as `P + Q` repeated) of the module's target, built as a shared library and timed inside C; the",
            "three alternate in one process (rounds of 200 calls), with `-P` (a call whose kernel is",
            "negligible: Python's part alone, minus the loop), so they see the same machine load.",
            "*medians*: median of the per-round differences; *fastest*: fastest round of each against each",
            "other (the least disturbed by other processes).",
            "",
            *o_lines,
        ]
    notes = sorted(
        {f"{peer} {row['op']}: {info['note']}" for row in rows for peer, info in row["peers"].items() if info.get("note")}
    )
    failed = sorted(
        {f"{peer} {row['op']}: {info['error']}" for row in rows for peer, info in row["peers"].items() if info.get("error")}
    )
    missing = [f"{name}: {why}" for name, why in sorted(meta.get("peers_missing", {}).items())]
    # ours not measured, grouped per curve and reason (e.g. an operation the module does not have yet)
    grouped: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        error = row.get("ours_error")
        if error:
            detail = error.split(": ", 1)[1] if error.startswith(f"{row['op']}: ") else error
            reason = "not in this module" if detail.startswith("AttributeError") else detail
            grouped.setdefault((row["curve"], reason), []).append(row["op"])
    unavailable = [f"{curve}: {', '.join(ops)} ({reason})" for (curve, reason), ops in grouped.items()]
    lines += [
        "",
        "## Notes",
        "",
        "- Peers: blspy, chia_rs (blst); pymcl (mcl, BLS12-381 only); py_arkworks_bls12381, zksnake (arkworks);",
        "  py_ecc (pure Python, slow operations timed once or twice). Only py_ecc exposes a separate Miller loop",
        "  and final exponentiation.",
        "- Pairing values: ours is e(P, Q)^m with the curve's fixed m (docs/api.md, 'What the pairing computes');",
        "  peers compute their own fixed power: the same work, different GT representatives.",
    ]
    checks = meta.get("peer_checks") or {}
    if checks:
        lines += ["", "Peer semantics checked in this run (bench/check_peers.py):", ""]
        lines += [f"- {result}: {name}" for name, result in checks.items()]
    if notes:
        lines += ["", "Where a peer's operation differs from ours:", ""] + [f"- {note}" for note in notes]
    if failed:
        lines += ["", "Peer operations that failed:", ""] + [f"- {f}" for f in failed]
    if missing:
        lines += ["", "Peers not installed:", ""] + [f"- {m}" for m in missing]
    if unavailable:
        lines += ["", "Not measured (ours):", ""] + [f"- {u}" for u in unavailable[:40]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_chart(path: Path, meta: dict, rows: list[dict], levels: dict | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = _curves_measured(rows)
    per_curve = {
        c: [r for r in rows if r["curve"] == c and r["op"] in CHART_OPS and (r.get("ours") or r.get("best_peer"))]
        for c in curves
    }
    heights = [max(1, len(v)) for v in per_curve.values()] or [1]
    fig_height = 0.3 * sum(heights) + 1.0 * len(heights) + 0.8
    fig, axes = plt.subplots(
        len(heights), 1, figsize=(10, fig_height), squeeze=False, gridspec_kw={"height_ratios": heights}
    )
    for ax, curve in zip(axes[:, 0], curves or ["(no curves)"], strict=False):
        data = per_curve.get(curve, [])
        ops = [row["op"] for row in data]
        ours = [row["ours"]["median_ns"] / 1e3 if row.get("ours") else 0.0 for row in data]
        peer = [row["best_peer_ns"] / 1e3 if row.get("best_peer") else 0.0 for row in data]
        y = range(len(ops))
        ax.barh([i - 0.2 for i in y], ours, height=0.4, label="pairforge", color="#1f77b4")
        ax.barh([i + 0.2 for i in y], peer, height=0.4, label="best peer", color="#ff7f0e")
        for i, row in enumerate(data):
            label = row.get("best_peer") or ""
            if row.get("ratio") is not None:
                label += f"  ×{row['ratio']:.2f}"
            if not row.get("ours"):
                label = "ours: n/a  " + label
            if label.strip():
                ax.text(max(ours[i], peer[i]) * 1.15, i, label.strip(), va="center", fontsize=7)
        ax.set_yticks(list(y))
        ax.set_yticklabels(ops, fontsize=8)
        ax.invert_yaxis()
        if any(ours) or any(peer):
            ax.set_xscale("log")
            ax.set_xlim(right=max(ours + peer) * 40)  # room for the labels
        ax.set_xlabel("median time per call through Python (µs, log scale)", fontsize=8)
        ax.set_title(curve, fontsize=10)
        ax.legend(loc="lower right", fontsize=7)
        ax.grid(axis="x", which="both", alpha=0.3)
    if not curves:
        axes[0, 0].text(0.5, 0.5, "no measurements", transform=axes[0, 0].transAxes, ha="center")
    fig.suptitle(
        f"pairforge vs best installed peer (×: ours / peer) — {meta['date'][:10]}, {meta['cpu']}, shared machine",
        fontsize=9,
    )
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / fig_height))  # room for the title
    fig.savefig(path, dpi=100)
    plt.close(fig)
