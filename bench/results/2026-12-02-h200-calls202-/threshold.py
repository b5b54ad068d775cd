#!/usr/bin/env python3
"""Where csr-hub wins, by the share of entries its hubs hold: joins shares-training.txt (hub_shares.cpp's output on
every generated matrix where the H200 measured csr-hub and another kernel of ours) with the measurements, and prints
per unit csr-hub's time over the best other kernel of ours and over the best cuSPARSE algorithm, by share.

    python3 threshold.py RESULTS.jsonl[.gz] ...   (the files of the command in README.md)
"""
import collections
import gzip
import json
import re
import sys


def shares(path):
    by_spec = {}
    for line in open(path):
        m = re.search(r"f64 share=([\d.]+) hubs=(\d+)\s+f32 share=([\d.]+) hubs=(\d+)", line)
        by_spec[line.split()[0]] = {"f64": float(m.group(1)), "f32": float(m.group(3))}
    return by_spec


def units(paths):
    found = collections.defaultdict(dict)
    for path in paths:
        for line in (gzip.open if path.endswith(".gz") else open)(path, "rt"):
            r = json.loads(line)
            if (r.get("operation") != "spmv" or r.get("status") != "ok" or r.get("reordering", "none") != "none"
                    or r["kernel"] == "auto" or not r["device"]["name"].endswith("H200")):
                continue
            found[(r["matrix"]["name"], r["matrix"].get("source", ""), r["precision"])][r["kernel"]] = r
    return found


def main():
    by_spec = shares(__file__.rsplit("/", 1)[0] + "/shares-training.txt" if "/" in __file__ else "shares-training.txt")
    rows = []
    for (name, source, precision), kernels in units(sys.argv[1:]).items():
        ours = {k: r["median_ms"] for k, r in kernels.items() if r["backend"] != "cusparse" and k != "csr-hub"}
        vendor = [r["median_ms"] for r in kernels.values() if r["backend"] == "cusparse"]
        if "csr-hub" not in kernels or not ours or not vendor or source not in by_spec:
            continue
        hub = kernels["csr-hub"]["median_ms"]
        best = min(ours, key=ours.get)
        rows.append((by_spec[source][precision], name, precision, kernels["csr-hub"]["matrix"]["nnz"],
                     hub / ours[best], best, hub / min(vendor)))
    print(f"{'share':>6} {'matrix':14} {'prec':4} {'nnz (M)':>8} {'csr-hub / best other ours':>26} {'/ best cuSPARSE':>15}")
    for share, name, precision, nnz, over_ours, best, over_vendor in sorted(rows):
        if nnz >= 8e6:  # beyond the L2, where the hubs' sectors matter
            print(f"{share:6.3f} {name:14} {precision:4} {nnz / 1e6:8.1f} {over_ours:12.2f} ({best:12}) {over_vendor:15.2f}")
    large = [r for r in rows if r[3] >= 8e6]
    wins = sorted(f"{name} {precision} {share:.2f}" for share, name, precision, nnz, over_ours, *_ in large if over_ours < 1)
    print(f"beyond 8 M entries, csr-hub is the fastest of ours on {len(wins)} units: {', '.join(wins)}")


if __name__ == "__main__":
    main()
