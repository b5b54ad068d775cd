#!/usr/bin/env python3
"""One kernel before and after a change, each against the best cuSPARSE algorithm of its own run (product time):
per set and precision the geometric mean before and after, and the units that moved most.
    ab_kernel.py BEFORE.jsonl[.gz] AFTER.jsonl[.gz] KERNEL"""
import collections, gzip, json, math, sys


def ratios(path, kernel):
    """(set, precision, matrix) -> best cuSPARSE time / the kernel's time."""
    times = collections.defaultdict(dict)
    for line in (gzip.open if path.endswith(".gz") else open)(path, "rt"):
        r = json.loads(line)
        if r["status"] != "ok" or not r["verified"] or r["k"] != 1:
            continue
        name = r["kernel"] if r["backend"] != "cusparse" else "cusparse:" + r["kernel"]
        times[(r["set"], r["precision"], r["matrix"]["name"])][name] = r["median_ms"]
    out = {}
    for unit, t in times.items():
        vendor = [v for k, v in t.items() if k.startswith("cusparse:")]
        if vendor and kernel in t:
            out[unit] = min(vendor) / t[kernel]
    return out


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


before, after = ratios(sys.argv[1], sys.argv[3]), ratios(sys.argv[2], sys.argv[3])
groups = collections.defaultdict(list)
for unit in sorted(before.keys() & after.keys()):
    groups[unit[:2]].append((unit[2], before[unit], after[unit]))
for (s, p), rows in sorted(groups.items()):
    print(f"{s} {p}: {len(rows)} matrices, {sys.argv[3]} vs cuSPARSE {geomean([r[1] for r in rows]):.3f}x -> "
          f"{geomean([r[2] for r in rows]):.3f}x; below 1.0: {sum(r[1] < 1 for r in rows)} -> "
          f"{sum(r[2] < 1 for r in rows)}")
    moved = sorted(rows, key=lambda r: abs(math.log(r[2] / r[1])), reverse=True)[:6]
    print("  " + ", ".join(f"{m} {b:.2f}->{a:.2f}" for m, b, a in moved))
