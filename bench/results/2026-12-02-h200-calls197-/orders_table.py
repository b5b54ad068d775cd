#!/usr/bin/env python3
"""Call 197's table: per unit, the best cuSPARSE algorithm and the best of ours (csr-adaptive, csr-hub) on the matrix
as it is, against the same on the RCM order (the operator's gather of x and scatter of y timed with the product),
from the bench JSON files of call197.sh (RESULTS/{none,rcm}/NAME-PRECISION.json). Speed-ups are over the best
cuSPARSE on the matrix as it is.

    orders_table.py RESULTS
"""
import glob
import json
import math
import os
import sys
from collections import defaultdict


def read(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)["results"]


def fastest(rows, backend):
    times = [(r["median_ms"], r) for r in rows
             if r["status"] == "ok" and r["verified"] and r["backend"] == backend and r["kernel"] != "auto"]
    return min(times, key=lambda t: t[0]) if times else (None, None)


def main():
    folder = sys.argv[1]
    print("| unit | precision | best cuSPARSE ms (as is) | ours as is | ours on RCM | cuSPARSE on RCM | RCM s (host) "
          "| ours as is / RCM vs cuSPARSE |")
    print("|---|---|---:|---|---|---:|---:|---|")
    ratios = defaultdict(list)
    names = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(folder, "none", "*.json")))
    for unit in names:
        name, precision = unit.rsplit("-", 1)
        group = "rmat" if name.startswith("rmat") else "nine"
        as_is, reordered = read(os.path.join(folder, "none", unit + ".json")), read(os.path.join(folder, "rcm", unit + ".json"))
        vendor, _ = fastest(as_is, "cusparse")
        ours, ours_row = fastest(as_is, "cuda")
        ours_rcm, rcm_row = fastest(reordered, "cuda")
        vendor_rcm, _ = fastest(reordered, "cusparse")
        if not (vendor and ours and ours_rcm):
            continue
        ratios[group + " as is"].append(vendor / ours)
        ratios[group + " rcm"].append(vendor / ours_rcm)
        print(f"| {name} | {precision} | {vendor:.4f} | {ours:.4f} ({ours_row['kernel']}) | "
              f"{ours_rcm:.4f} ({rcm_row['kernel']}) | {vendor_rcm or float('nan'):.4f} | "
              f"{rcm_row['reorder_seconds']:.2f} | {vendor / ours:.2f}x / {vendor / ours_rcm:.2f}x |")
    print()
    for key, values in ratios.items():
        geomean = math.exp(sum(map(math.log, values)) / len(values))
        print(f"- {key}: best of ours vs the best cuSPARSE as is, geomean over {len(values)}: {geomean:.3f}x, "
              f"below 1.0x: {sum(v < 1.0 for v in values)}")


if __name__ == "__main__":
    main()
