#!/usr/bin/env python3
"""One kernel before and after a change, each against the best cuSPARSE algorithm of its own run (product time):
per set and precision the geometric mean before and after, and the units that moved most.
    ab_kernel.py BEFORE.jsonl[.gz] AFTER.jsonl[.gz] KERNEL"""
import collections, math, sys

from suite_ratios import read_units


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


kernel = sys.argv[3]
before, after = ({u: r[kernel] for u, r in read_units([path])[0].items() if kernel in r} for path in sys.argv[1:3])
groups = collections.defaultdict(list)
for unit in sorted(before.keys() & after.keys()):
    groups[unit[:2]].append((unit[2], before[unit], after[unit]))
for (s, p), rows in sorted(groups.items()):
    print(f"{s} {p}: {len(rows)} matrices, {kernel} vs cuSPARSE {geomean([r[1] for r in rows]):.3f}x -> "
          f"{geomean([r[2] for r in rows]):.3f}x; below 1.0: {sum(r[1] < 1 for r in rows)} -> "
          f"{sum(r[2] < 1 for r in rows)}")
    moved = sorted(rows, key=lambda r: abs(math.log(r[2] / r[1])), reverse=True)[:6]
    print("  " + ", ".join(f"{m} {b:.2f}->{a:.2f}" for m, b, a in moved))
