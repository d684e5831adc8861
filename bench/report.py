"""Writing the results: JSON (everything), a markdown table, and a PNG chart."""

from __future__ import annotations

import json
from pathlib import Path

from bench.ops import OPS
from bench.timing import format_ns


def write_json(path: Path, meta: dict, rows: list[dict]) -> None:
    path.write_text(json.dumps({"meta": meta, "results": rows}, indent=2) + "\n", encoding="utf-8")


def _ratio(row: dict) -> str:
    return "n/a" if row.get("ratio") is None else f"{row['ratio']:.2f}"


def write_markdown(path: Path, meta: dict, rows: list[dict]) -> None:
    lines = [
        "# pairforge benchmarks",
        "",
        f"{meta['date']} · Python {meta['python']} · {meta['cpu']} · "
        f"{'quick run' if meta['quick'] else 'full run'}",
        "",
        "Median time per call through the Python API. *ratio* = ours / best peer: below 1 we are faster.",
        "These machines are shared and noisy: compare ratios within one run, not times across runs.",
        "",
        "| curve | op | ours | best peer | peer | ratio |",
        "|---|---|---:|---:|---|---:|",
    ]
    empty = {
        curve
        for curve in dict.fromkeys(r["curve"] for r in rows)
        if not any(r.get("ours") or r.get("best_peer") for r in rows if r["curve"] == curve)
    }
    for curve in sorted(empty):
        lines.append(f"| {curve} | (all) | n/a | n/a | — | n/a |")
    for row in rows:
        if row["curve"] in empty:
            continue
        ours = format_ns(row["ours"]["median_ns"]) if row.get("ours") else "n/a"
        best = format_ns(row["best_peer_ns"]) if row.get("best_peer") else "n/a"
        peer = row.get("best_peer") or "—"
        lines.append(f"| {row['curve']} | {row['op']} | {ours} | {best} | {peer} | {_ratio(row)} |")
    notes = sorted(
        {f"{peer} {row['op']}: {info['note']}" for row in rows for peer, info in row["peers"].items() if info.get("note")}
    )
    missing = [f"{name}: {why}" for name, why in sorted(meta.get("peers_missing", {}).items())]
    unavailable = sorted({f"{row['curve']}: {row['ours_error']}" for row in rows if row.get("ours_error")})
    if notes:
        lines += ["", "Notes on peers:", ""] + [f"- {note}" for note in notes]
    if missing:
        lines += ["", "Peers not installed:", ""] + [f"- {m}" for m in missing]
    if unavailable:
        lines += ["", "Not measured (ours):", ""] + [f"- {u}" for u in unavailable[:20]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_chart(path: Path, meta: dict, rows: list[dict]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = [
        curve
        for curve in dict.fromkeys(row["curve"] for row in rows)
        if any(r.get("ours") or r.get("best_peer") for r in rows if r["curve"] == curve)
    ]
    fig_height = max(3.0, 0.32 * len(OPS) * max(1, len(curves)) + 1.2 * len(curves))
    fig, axes = plt.subplots(len(curves) or 1, 1, figsize=(10, fig_height), squeeze=False)
    for ax, curve in zip(axes[:, 0], curves or ["(no curves)"], strict=False):
        data = [row for row in rows if row["curve"] == curve]
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
            if label:
                ax.text(max(ours[i], peer[i], 1e-3) * 1.15, i, label.strip(), va="center", fontsize=7)
        ax.set_yticks(list(y))
        ax.set_yticklabels(ops, fontsize=8)
        ax.invert_yaxis()
        if any(ours) or any(peer):
            ax.set_xscale("log")
            ax.set_xlim(right=max(ours + peer) * 60)  # room for the labels
        ax.set_xlabel("median time per call (µs, log scale)")
        ax.set_title(curve)
        ax.legend(loc="lower right", fontsize=8)
        ax.grid(axis="x", which="both", alpha=0.3)
    if not curves:
        axes[0, 0].text(0.5, 0.5, "no measurements", transform=axes[0, 0].transAxes, ha="center")
    fig.suptitle(f"pairforge vs peers — {meta['date']} ({meta['cpu']})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
