#!/usr/bin/env python3
"""Charts of quant-bench runs, for bench/README.md.

    for i in 1 2 3; do build-bench/bench/quant-bench --csv > bench/runs/run$i.csv; done
    python3 bench/plot.py bench/runs/run*.csv

Reads one or more `quant-bench --csv` runs and takes each cell's median over
the runs, as bench/median.py does. A run's ratios are quant.h's time over
another implementation's, measured side by side within that run; the other
implementation's ns/element in a chart is quant.h's median ns/element
divided by the median ratio (left out where that ratio is below 0.1,
as the CSV's two decimals are then too coarse).

Writes into bench/charts/ (or --out), as PNG and SVG:
  f32_s8        f32 -> s8 per tensor (exact, onednn, torch), oneDNN, XNNPACK
  s8_f32        s8 -> f32 per tensor
  per_channel   f32 -> s8 per channel (onednn rounding) against oneDNN
  f8_e4m3       f32 -> f8 e4m3 and back
  u4_bf16       packed u4 -> bf16 with a scale and zero point per group
  bf16_s8       bf16 -> s8
  limit         quant.h's time over the memory-traffic limit's, per format

Each chart names the machine and the date of the runs. They come from
--machine and --date, else from machine.txt beside the first CSV when that
file describes the same CSVs (it records their SHA-256), else from
/proc/cpuinfo and the newest CSV's modification date. machine.txt is then
written, so that charts regenerated from the same CSVs, on any machine,
come out byte for byte the same.
"""
import argparse
import csv
import datetime
import hashlib
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib import ticker  # noqa: E402

RATIOS = ("x_limit", "x_plain", "x_onednn", "x_xnnpack")
# The CSV gives ratios to two decimals: below 0.1 a ratio is off by up to
# 5% or more, so a time derived from it is left out of the charts (the
# plain C loop's f8 and 4-bit rows, at 0.01-0.07).
MIN_RATIO = 0.1


def read_runs(paths):
    """{(op, layout, channels, n): {column: median}} over the runs that
    hold the row."""
    cells = {}
    for p in paths:
        with open(p, newline="") as f:
            for r in csv.DictReader(f):
                key = (r["op"].strip(), r["layout"], int(r["channels"]), int(r["n"]))
                d = cells.setdefault(key, {})
                for c in ("quant_ns",) + RATIOS:
                    v = r.get(c, "-")
                    if v not in ("-", ""):
                        d.setdefault(c, []).append(float(v))
    return {k: {c: statistics.median(v) for c, v in d.items()} for k, d in cells.items()}


def series(med, op, layout, channels, col="quant_ns"):
    """Sorted (n, ns/element) of one implementation on one row: quant.h's
    own time, or another's derived from the ratio in column col."""
    pts = []
    for (o, lay, c, n), d in med.items():
        if o != op or lay != layout or (channels is not None and c != channels):
            continue
        if col == "quant_ns":
            pts.append((n, d["quant_ns"]))
        elif col in d and d[col] >= MIN_RATIO:
            pts.append((n, d["quant_ns"] / d[col]))
    return sorted(pts)


def size_label(n):
    return f"{n >> 20} Mi" if n >= 1 << 20 else f"{n >> 10} Ki"


def cpu_from_proc():
    info = {}
    cpus = 0
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                k = k.strip()
                if k == "processor":
                    cpus += 1
                elif k in ("model name", "cpu family", "model", "CPU implementer", "CPU part") and k not in info:
                    info[k] = v.strip()
    except OSError:
        return "unknown CPU"
    name = info.get("model name", "unknown CPU")
    if "cpu family" in info:
        name += f" (family {info['cpu family']}, model {info.get('model', '?')})"
    return f"{name}, {cpus} logical CPUs" if cpus else name


def describe(args):
    """(machine, date) for the footers, and machine.txt kept up to date."""
    digest = hashlib.sha256()
    for p in sorted(args.csv, key=os.path.basename):
        with open(p, "rb") as f:
            digest.update(f.read())
    digest = digest.hexdigest()
    sidecar = os.path.join(os.path.dirname(os.path.abspath(args.csv[0])), "machine.txt")
    saved = {}
    if os.path.exists(sidecar):
        with open(sidecar) as f:
            for line in f:
                k, _, v = line.partition(":")
                saved[k.strip()] = v.strip()
    if saved.get("csv sha256") != digest:
        saved = {}
    machine = args.machine or saved.get("machine") or cpu_from_proc()
    newest = max(os.path.getmtime(p) for p in args.csv)
    date = args.date or saved.get("date") or \
        datetime.datetime.fromtimestamp(newest, datetime.timezone.utc).strftime("%Y-%m-%d")
    text = f"machine: {machine}\ndate: {date}\ncsv sha256: {digest}\n"
    old = None
    if os.path.exists(sidecar):
        with open(sidecar) as f:
            old = f.read()
    if old != text:
        with open(sidecar, "w") as f:
            f.write(text)
    return machine, date


def footer(fig, ctx, note):
    fig.text(0.01, 0.01, f"{ctx['machine']}\nquant-bench runs of {ctx['date']}, median of {ctx['runs']}. {note}",
             fontsize=7, color="#444444", ha="left", va="bottom", linespacing=1.4)


def save(fig, ctx, name):
    os.makedirs(ctx["out"], exist_ok=True)
    base = os.path.join(ctx["out"], name)
    fig.savefig(base + ".png", dpi=100, metadata={"Software": None})
    fig.savefig(base + ".svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    print(base + ".png", base + ".svg")


# (label, op, layout, channels, column, style): one line of a size chart
LIMIT_STYLE = dict(color="black", linestyle=":", marker="")


def size_chart(med, ctx, name, title, lines):
    fig, ax = plt.subplots(figsize=(9.0, 4.6))
    ns_seen = set()
    for label, op, layout, channels, col, style in lines:
        pts = series(med, op, layout, channels, col)
        if not pts:
            continue
        ns_seen.update(n for n, _ in pts)
        kw = dict(marker="o", markersize=4, linewidth=1.6)
        kw.update(style)
        ax.plot([n for n, _ in pts], [v for _, v in pts], label=label, **kw)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_locator(ticker.NullLocator())
    ticks = sorted(ns_seen)
    ax.set_xticks(ticks)
    ax.set_xticklabels([size_label(n) for n in ticks])
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.set_xlabel("elements per call")
    ax.set_ylabel("ns per element (log)")
    ax.set_title(title, fontsize=11)
    ax.grid(True, which="major", linewidth=0.4, color="#cccccc")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.subplots_adjust(left=0.09, right=0.7, top=0.92, bottom=0.2)
    footer(fig, ctx, "Others' ns/element: quant.h's over the median time ratio.")
    save(fig, ctx, name)


def limit_chart(med, ctx):
    rows = [
        ("f32→s8 exact", "f32->s8 exact", "tensor", 1),
        ("f32→s8 torch", "f32->s8 torch", "tensor", 1),
        ("s8→f32", "s8->f32", "tensor", 1),
        ("f32→s8 exact\naxis 1, C=64", "f32->s8 exact", "axis1", 64),
        ("s8→f32\nlast, C=256", "s8->f32", "last", 256),
        ("f32→f8 e4m3", "f32->f8_e4m3", "tensor", 1),
        ("f8 e4m3→f32", "f8_e4m3->f32", "tensor", 1),
        ("u4→bf16 g32", "u4->bf16", "g32", None),
        ("u4→bf16 g128", "u4->bf16", "g128", None),
        ("bf16→s8\nonednn", "bf16->s8 onednn", "tensor", 1),
    ]
    sizes = sorted({k[3] for k in med})
    colors = ["#9ecae1", "#4292c6", "#08519c", "#08306b"]
    fig, ax = plt.subplots(figsize=(9.6, 4.6))
    width = 0.8 / len(sizes)
    for si, n in enumerate(sizes):
        xs, ys = [], []
        for ri, (_, op, layout, channels) in enumerate(rows):
            for (o, lay, c, nn), d in med.items():
                if o == op and lay == layout and nn == n and (channels is None or c == channels) and "x_limit" in d:
                    xs.append(ri - 0.4 + width * (si + 0.5))
                    ys.append(d["x_limit"])
        ax.bar(xs, ys, width=width * 0.92, label=size_label(n), color=colors[si % len(colors)])
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle=":")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r[0] for r in rows], fontsize=8)
    ax.set_ylabel("× the memory-traffic limit (1 = as fast as a bare copy)")
    ax.set_title("quant.h's time over the limit's: the same bytes read and written, no arithmetic", fontsize=11)
    ax.grid(True, axis="y", linewidth=0.4, color="#cccccc")
    ax.set_axisbelow(True)
    ax.legend(title="elements", fontsize=8, title_fontsize=8)
    fig.subplots_adjust(left=0.08, right=0.99, top=0.92, bottom=0.22)
    footer(fig, ctx, "A bar is the median over the runs of quant.h's time over the limit loop's, each taken in one run.")
    save(fig, ctx, "limit")


def main():
    ap = argparse.ArgumentParser(description="Charts of quant-bench --csv runs (medians across runs).")
    ap.add_argument("csv", nargs="+", help="quant-bench --csv output files")
    ap.add_argument("--machine", help="the machine's name for the footers (default: /proc/cpuinfo)")
    ap.add_argument("--date", help="the date of the runs (default: the newest CSV's)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "charts"),
                    help="output directory (default: bench/charts)")
    args = ap.parse_args()

    plt.rcParams.update({
        "svg.hashsalt": "quant.h",   # stable ids in the SVG
        "svg.fonttype": "none",      # text as text: smaller files
        "font.size": 9,
    })
    med = read_runs(args.csv)
    machine, date = describe(args)
    ctx = dict(machine=machine, date=date, runs=len(args.csv), out=args.out)

    peer_dnnl = dict(color="#d62728", linestyle="--")
    peer_xnn = dict(color="#2ca02c", linestyle="--")
    plain = dict(color="#7f7f7f", linestyle="-.", marker="s")
    size_chart(med, ctx, "f32_s8", "f32 → s8, one scale per tensor", [
        ("quant.h exact (default)", "f32->s8 exact", "tensor", 1, "quant_ns", dict(color="#1f77b4")),
        ("quant.h onednn", "f32->s8 onednn", "tensor", 1, "quant_ns", dict(color="#9467bd")),
        ("quant.h torch", "f32->s8 torch", "tensor", 1, "quant_ns", dict(color="#17becf")),
        ("oneDNN reorder (its rounding)", "f32->s8 onednn", "tensor", 1, "x_onednn", peer_dnnl),
        ("XNNPACK convert (its rounding)", "f32->s8 torch", "tensor", 1, "x_xnnpack", peer_xnn),
        ("plain C loop (exact)", "f32->s8 exact", "tensor", 1, "x_plain", plain),
        ("traffic limit", "f32->s8 exact", "tensor", 1, "x_limit", LIMIT_STYLE),
    ])
    size_chart(med, ctx, "s8_f32", "s8 → f32, one scale per tensor", [
        ("quant.h", "s8->f32", "tensor", 1, "quant_ns", dict(color="#1f77b4")),
        ("oneDNN reorder", "s8->f32", "tensor", 1, "x_onednn", peer_dnnl),
        ("XNNPACK convert", "s8->f32", "tensor", 1, "x_xnnpack", peer_xnn),
        ("plain C loop", "s8->f32", "tensor", 1, "x_plain", plain),
        ("traffic limit", "s8->f32", "tensor", 1, "x_limit", LIMIT_STYLE),
    ])
    size_chart(med, ctx, "per_channel", "f32 → s8 per channel, onednn rounding, against oneDNN", [
        ("quant.h, axis 1 of [1, 64, n/64]", "f32->s8 onednn", "axis1", 64, "quant_ns", dict(color="#1f77b4")),
        ("oneDNN, axis 1", "f32->s8 onednn", "axis1", 64, "x_onednn", dict(peer_dnnl, color="#d62728")),
        ("quant.h, last axis, C=256", "f32->s8 onednn", "last", 256, "quant_ns", dict(color="#9467bd")),
        ("oneDNN, last axis, C=256", "f32->s8 onednn", "last", 256, "x_onednn", dict(peer_dnnl, color="#ff7f0e")),
        ("traffic limit", "f32->s8 onednn", "last", 256, "x_limit", LIMIT_STYLE),
    ])
    size_chart(med, ctx, "f8_e4m3", "f32 ↔ f8 e4m3 (OCP E4M3FN), one scale per tensor", [
        ("quant.h encode f32→e4m3", "f32->f8_e4m3", "tensor", 1, "quant_ns", dict(color="#1f77b4")),
        ("quant.h decode e4m3→f32", "f8_e4m3->f32", "tensor", 1, "quant_ns", dict(color="#9467bd")),
        ("plain C encode", "f32->f8_e4m3", "tensor", 1, "x_plain", plain),
        ("plain C decode", "f8_e4m3->f32", "tensor", 1, "x_plain", dict(plain, color="#bcbd22")),
        ("traffic limit (either way)", "f32->f8_e4m3", "tensor", 1, "x_limit", LIMIT_STYLE),
    ])
    size_chart(med, ctx, "u4_bf16", "packed u4 → bf16, a scale and zero point per group (row kernel)", [
        ("quant.h, groups of 32", "u4->bf16", "g32", None, "quant_ns", dict(color="#1f77b4")),
        ("quant.h, groups of 128", "u4->bf16", "g128", None, "quant_ns", dict(color="#9467bd")),
        ("plain C loop, groups of 32", "u4->bf16", "g32", None, "x_plain", plain),
        ("traffic limit", "u4->bf16", "g32", None, "x_limit", LIMIT_STYLE),
    ])
    size_chart(med, ctx, "bf16_s8", "bf16 → s8, one scale per tensor", [
        ("quant.h exact (quant_bf16_to_s8)", "bf16->s8 exact", "tensor", 1, "quant_ns", dict(color="#1f77b4")),
        ("quant.h onednn", "bf16->s8 onednn", "tensor", 1, "quant_ns", dict(color="#9467bd")),
        ("oneDNN reorder", "bf16->s8 onednn", "tensor", 1, "x_onednn", peer_dnnl),
        ("plain C loop (exact)", "bf16->s8 exact", "tensor", 1, "x_plain", plain),
        ("traffic limit", "bf16->s8 exact", "tensor", 1, "x_limit", LIMIT_STYLE),
    ])
    limit_chart(med, ctx)
    return 0


if __name__ == "__main__":
    sys.exit(main())
