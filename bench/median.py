#!/usr/bin/env python3
"""Median of several quant-bench runs, as the README's table.

    for i in 1 2 3 4 5; do build-bench/bench/quant-bench --csv > run$i.csv; done
    python3 bench/median.py run*.csv

Each cell is the median over the runs of that cell (each run's ratios were
measured side by side within that run). The last column gives the range of
the x XNNPACK ratio over the runs, or of x limit where there is no XNNPACK
row, so the noise is visible next to the median.
"""
import csv
import statistics
import sys


def cell(values):
    nums = [float(v) for v in values if v not in ("-", "")]
    return statistics.median(nums) if nums else None


def main(paths):
    runs = []
    for p in paths:
        with open(p, newline="") as f:
            runs.append({(r["op"], r["layout"], r["channels"], r["n"]): r for r in csv.DictReader(f)})
    keys = [k for k in runs[0] if all(k in r for r in runs)]
    cols = ["quant_ns", "quant_gbs", "x_limit", "x_plain", "x_onednn", "x_xnnpack", "dispatch"]
    print(f"median of {len(runs)} runs\n")
    print("| op | layout | C | n | ns/elem | GB/s | × limit | × plain C | × oneDNN | × XNNPACK | dispatch | range |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in keys:
        med = []
        for c in cols:
            m = cell(r[k].get(c, "-") for r in runs)
            med.append("–" if m is None else f"{m:.4f}" if c == "quant_ns" else f"{m:.0f}" if c == "quant_gbs" else f"{m:.2f}")
        spread_col = "x_xnnpack" if runs[0][k]["x_xnnpack"] != "-" else "x_limit"
        vals = [float(r[k][spread_col]) for r in runs]
        spread = f"{min(vals):.2f}–{max(vals):.2f}"
        print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | " + " | ".join(med) + f" | {spread} |")
    bad = [p for p, r in zip(paths, runs) if any("FAIL" in row["check"] for row in r.values())]
    if bad:
        print("\nresult check failures in: " + ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
