#!/usr/bin/env python3
"""The default choice ('auto') against the best cuSPARSE algorithm, from `spmv suite` results.

Per set and precision: how many units, the geometric mean and the worst of
best-cuSPARSE time / auto time (product only, both measured in the same run),
how many units fall below 0.95, the same ratio for the whole cost the plan
weighed (setup + expected_products x product, each kernel's own setup as
measured in the run), and the plan's analysis and choice as a share of the
matrix's upload. When every kernel was measured, also the loss against the
ideal: 1 - the least setup + expected_products x product of any kernel over
auto's (whose setup includes the plan's analysis); at 10^6 products that is
the product's loss. SpMM units (k > 1) are summarised apart, per k and layout
of B and C ("family k=16 col-major"). Prints markdown.

--auto-from AUTO_RESULTS judges the auto of another run (e.g. `spmv suite
--kernels auto` with $SPMV_SELECTOR_MODEL naming a retrained model) on the
units of RESULTS: against the best cuSPARSE of its own run, and against the
ideal of RESULTS' kernels (its auto replaced by the other run's).
    bench/auto_vs_cusparse.py RESULTS.jsonl[.gz] [--auto-from AUTO_RESULTS] [--worst N]
"""
import argparse
import gzip
import json
import math
import statistics
from collections import defaultdict


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f]


def by_unit(results):
    """{(set and product, matrix, precision): {kernel: result}}"""
    units = defaultdict(dict)
    for r in results:
        product = "" if r.get("k", 1) == 1 else f" k={r['k']} {r.get('layout', 'row-major')}"
        units[(r["set"] + product, r["matrix"]["name"], r["precision"])][r["kernel"]] = r
    return units


def cost_seconds(r):
    """What the plan minimises: setup + expected products x product."""
    return r["setup_seconds"] + r["expected_products"] * r["median_ms"] * 1e-3


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results")
    parser.add_argument("--worst", type=int, default=8, help="list this many units of the lowest ratio")
    parser.add_argument("--auto-from", help="judge this run's auto instead (against its own run's cuSPARSE)")
    args = parser.parse_args()
    units = by_unit(read(args.results))
    vendor_of = units
    if args.auto_from:
        vendor_of = by_unit(read(args.auto_from))
        for key, by_kernel in units.items():
            by_kernel.pop("auto", None)
            if "auto" in vendor_of.get(key, {}):
                by_kernel["auto"] = vendor_of[key]["auto"]
    rows, missing = [], []
    for key, by_kernel in sorted(units.items()):
        auto = by_kernel.get("auto")
        vendor_runs = [r for r in vendor_of.get(key, {}).values() if r["backend"] == "cusparse" and r["status"] == "ok"]
        vendor = [r["median_ms"] for r in vendor_runs]
        if not auto or auto["status"] != "ok" or not vendor:
            missing.append((key, auto["message"] if auto else "no auto row"))
            continue
        measured = [cost_seconds(r) for r in by_kernel.values() if r["status"] == "ok" and r["verified"]]
        rows.append({"set": key[0], "matrix": key[1], "precision": key[2], "chosen": auto["chosen_kernel"],
                     "ratio": min(vendor) / auto["median_ms"],
                     "cost_ratio": min(map(cost_seconds, vendor_runs)) / cost_seconds(auto),
                     "loss": 1 - min(measured) / cost_seconds(auto) if len(by_kernel) > len(vendor) + 1 else None,
                     "plan_share": auto["analysis_seconds"] / max(auto["upload_seconds"], 1e-9)})
    print("| set | prec | units | auto vs best cuSPARSE (geomean) | worst | below 0.95x "
          "| with setup: geomean | worst | plan / upload (median) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    sets = sorted({r["set"] for r in rows}, key=lambda s: (["family", "real", "replicated"].index(s.split()[0]), s))
    for s in sets:
        for p in ("f64", "f32"):
            rr = [r for r in rows if r["set"] == s and r["precision"] == p]
            if not rr:
                continue
            gm = math.exp(statistics.mean(math.log(r["ratio"]) for r in rr))
            worst = min(rr, key=lambda r: r["ratio"])
            cost_gm = math.exp(statistics.mean(math.log(r["cost_ratio"]) for r in rr))
            cost_worst = min(rr, key=lambda r: r["cost_ratio"])
            print(f"| {s} | {p} | {len(rr)} | {gm:.2f}x | {worst['ratio']:.2f}x ({worst['matrix']}) "
                  f"| {sum(r['ratio'] < 0.95 for r in rr)} | {cost_gm:.2f}x "
                  f"| {cost_worst['cost_ratio']:.2f}x ({cost_worst['matrix']}) "
                  f"| {100 * statistics.median(r['plan_share'] for r in rr):.0f}% |")
    judged = [r for r in rows if r["loss"] is not None]
    if judged:
        print()
        print("| set | prec | units | loss vs ideal: mean | median | worst |")
        print("|---|---|---:|---:|---:|---:|")
        for s in sets:
            for p in ("f64", "f32"):
                rr = [r for r in judged if r["set"] == s and r["precision"] == p]
                if rr:
                    worst = max(rr, key=lambda r: r["loss"])
                    print(f"| {s} | {p} | {len(rr)} | {100 * statistics.mean(r['loss'] for r in rr):.1f}% "
                          f"| {100 * statistics.median(r['loss'] for r in rr):.1f}% "
                          f"| {100 * worst['loss']:.1f}% ({worst['matrix']}) |")
    print()
    for r in sorted(rows, key=lambda r: r["ratio"])[:args.worst]:
        print(f"- {r['set']} {r['matrix']} {r['precision']}: auto chose {r['chosen']}, {r['ratio']:.2f}x best cuSPARSE"
              f" ({r['cost_ratio']:.2f}x with setup)")
    for key, why in missing:
        print(f"- not measured: {' '.join(key)}: {why}")


if __name__ == "__main__":
    main()
