#!/usr/bin/env python3
"""A model file's choices on units where every kernel was measured (`spmv suite --kernels all`), looked up in the
measurements, with no device time: per results file, the chosen kernel's speed over the best cuSPARSE algorithm
(geomean, units below 0.95x) and its loss against the fastest kernel (mean, median, worst). The choice is
train_selector.py's choose() at 10^6 expected products with the model's own risk and margin; features come from
the feature cache (computed with SPMV for units it lacks). SpMM units with --operation spmm; MODEL "default-spmm"
stands for the cuda operator's default SpMM before the SpMM model (FastSpMM for k <= 8 where its ELLPACK-R takes
at most 1.25x the CSR's bytes, else spmm-csr-vec), found from the same measurements.
    model_on_measured.py [--operation spmm] MODEL.json|default-spmm RESULTS.jsonl.gz ..."""
import argparse
import math
import os
import statistics
import sys
import json
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import train_selector as ts  # noqa: E402


def default_spmm(sample, ok):
    m, value_bytes = sample["matrix"], ts.value_bytes(sample)
    csr_bytes = (m["rows"] + 1) * 4 + m["nnz"] * (4 + value_bytes)
    fast = ok.get("spmm-fastspmm")
    if sample["k"] <= 8 and fast and fast["matrix_bytes"] <= 1.25 * csr_bytes:
        return "spmm-fastspmm"
    return "spmm-csr-vec"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("results", nargs="+")
    parser.add_argument("--operation", default="spmv", choices=["spmv", "spmm"])
    parser.add_argument("--spmv", default="build/spmv")
    parser.add_argument("--features-cache", default="bench/selector/features.jsonl")
    args = parser.parse_args()
    model = None if args.model == "default-spmm" else json.load(open(args.model))
    names = model["features"] if model else []
    for path in args.results:
        records = ts.read_results([path], "../shared/data/matrices", {}, args.operation)
        features = ts.load_features(args.spmv, records, args.features_cache, 2, "../shared/data/matrices")
        units = defaultdict(dict)
        for r in records:
            units[ts.unit_key(r) + (r["device"]["name"],)][r["kernel"]] = r
        rows = []
        for by_kernel in units.values():
            ok = {k: r for k, r in by_kernel.items() if r["status"] == "ok" and r.get("verified")}
            vendor = [r["median_ms"] for r in ok.values() if r["backend"] == "cusparse"]
            if not vendor or len(ok) < 4:  # every kernel measured (SpMM units have six)
                continue
            sample = next(iter(ok.values()))
            refused = {k for k, r in by_kernel.items() if r["status"] != "ok"}
            if model:
                chosen = ts.choose(model["kernels"], names, ts.feature_row(features, sample, names),
                                   sample["matrix"]["nnz"], refused, 1e6, ts.roofline_seconds(sample),
                                   model["vendor_margin"], model["risk"])
            else:
                chosen = default_spmm(sample, ok)
            if chosen not in ok:
                continue
            ideal = min(r["median_ms"] for r in ok.values())
            rows.append((min(vendor) / ok[chosen]["median_ms"], ok[chosen]["median_ms"] / ideal - 1,
                         ts.unit_name(sample) + " " + sample["precision"], chosen))
        if not rows:
            continue
        gm = math.exp(statistics.mean(math.log(r[0]) for r in rows))
        losses = [r[1] for r in rows]
        worst = min(rows)
        print(f"| {os.path.relpath(path)} | {len(rows)} | {gm:.2f}x | {sum(r[0] < 0.95 for r in rows)} "
              f"| {worst[0]:.2f}x ({worst[2]}, {worst[3]}) | {100 * statistics.mean(losses):.1f}% "
              f"| {100 * statistics.median(losses):.1f}% | {100 * max(losses):.1f}% |")


if __name__ == "__main__":
    main()
