#!/usr/bin/env python3
"""Summarises `spmv bench --json` files: per matrix and precision, the best
cuda kernel against the best cuSPARSE algorithm, as a Markdown table, then the
geometric-mean speed-up per precision. Usage: families_table.py FILE.json..."""
import json
import math
import sys


def summarise(path):
    d = json.load(open(path))
    ok = [r for r in d["results"] if r["status"] == "ok"]
    ours = [r for r in ok if r["backend"] == "cuda"]
    vendor = [r for r in ok if r["backend"] == "cusparse"]
    if not ours or not vendor:
        return None
    best = min(ours, key=lambda r: r["median_ms"])
    base = min(vendor, key=lambda r: r["median_ms"])
    copy = d.get("copy_bandwidth_gbs") or float("nan")
    return {
        "matrix": d["matrix"]["source"] if isinstance(d["matrix"], dict) else d["matrix"],
        "nnz": d["matrix"].get("nnz") if isinstance(d["matrix"], dict) else None,
        "precision": d["precision"],
        "best": best,
        "base": base,
        "copy": copy,
        "failed": [r["kernel"] for r in d["results"] if r["status"] == "FAILED"],
    }


def main(paths):
    rows = [s for s in map(summarise, paths) if s]
    print("| matrix | prec | best kernel (params) | ms | % copy BW | best cuSPARSE | ms | % copy BW | speed-up |")
    print("|---|---|---|---:|---:|---|---:|---:|---:|")
    for s in rows:
        b, v = s["best"], s["base"]
        params = ",".join(f"{k}={val}" for k, val in b["params"].items())
        pct = lambda r: 100.0 * r["gbs"] / s["copy"]
        print(f'| {s["matrix"]} | {s["precision"]} | {b["kernel"]} ({params}) | {b["median_ms"]:.3f} | '
              f'{pct(b):.0f}% | {v["kernel"]} | {v["median_ms"]:.3f} | {pct(v):.0f}% | '
              f'{v["median_ms"] / b["median_ms"]:.2f}x |')
    for precision in sorted({s["precision"] for s in rows}):
        speedups = [s["base"]["median_ms"] / s["best"]["median_ms"] for s in rows if s["precision"] == precision]
        geo = math.exp(sum(map(math.log, speedups)) / len(speedups))
        print(f"\n{precision}: geometric-mean speed-up of the best kernel over the best cuSPARSE "
              f"algorithm: {geo:.2f}x over {len(speedups)} matrices; slowest {min(speedups):.2f}x")
    failed = [(s["matrix"], s["precision"], s["failed"]) for s in rows if s["failed"]]
    for m, p, kernels in failed:
        print(f"FAILED on {m} {p}: {', '.join(kernels)}")


if __name__ == "__main__":
    main(sys.argv[1:])
