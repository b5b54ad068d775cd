#!/usr/bin/env python3
"""One kernel of two builds, each against the best cuSPARSE algorithm of its own `spmv suite` run.

Per unit (set, matrix, precision) that both runs timed and verified: the kernel's speed over the best cuSPARSE
algorithm in the old and the new run, and new / old of those speeds; then their geomeans per set and precision.
A unit only one run has is listed apart.
    bench/ab_kernel.py KERNEL OLD-results.jsonl[.gz] NEW-results.jsonl[.gz] [--changed-only PERCENT]
--changed-only lists only the units whose new / old differs from 1 by more than PERCENT (the geomeans keep all)."""
import argparse
import gzip
import json
import math


def speeds(path, kernel):
    """(set, matrix, precision) -> the kernel's speed over the best cuSPARSE algorithm of the same run."""
    times = {}
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        for line in f:
            r = json.loads(line)
            if r["status"] != "ok" or not r.get("verified"):
                continue
            unit = (r.get("set", ""), r["matrix"]["name"], r["precision"])
            times.setdefault(unit, {})[r["kernel"]] = r["median_ms"]
    out = {}
    for unit, by_kernel in times.items():
        vendor = [t for k, t in by_kernel.items() if k.startswith("cusparse")]
        if kernel in by_kernel and vendor:
            out[unit] = min(vendor) / by_kernel[kernel]
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel")
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--changed-only", type=float, default=None, metavar="PERCENT")
    args = parser.parse_args()
    old, new = speeds(args.old, args.kernel), speeds(args.new, args.kernel)
    both = sorted(set(old) & set(new))
    print(f"| set | matrix | prec | old: {args.kernel} vs best cuSPARSE | new | new / old |")
    print("|---|---|---|---:|---:|---:|")
    for unit in both:
        ratio = new[unit] / old[unit]
        if args.changed_only is None or abs(ratio - 1) * 100 > args.changed_only:
            print(f"| {unit[0]} | {unit[1]} | {unit[2]} | {old[unit]:.3f}x | {new[unit]:.3f}x | {ratio:.3f} |")
    for set_name in sorted({u[0] for u in both}):
        for precision in ("f64", "f32"):
            units = [u for u in both if u[0] == set_name and u[2] == precision]
            if units:
                print(f"| {set_name} | geomean of {len(units)} | {precision} | {geomean([old[u] for u in units]):.3f}x"
                      f" | {geomean([new[u] for u in units]):.3f}x | {geomean([new[u] / old[u] for u in units]):.3f} |")
    missing = sorted(set(old) ^ set(new))
    if missing:
        print("\n- in one run only: " + ", ".join(" ".join(m) for m in missing))


if __name__ == "__main__":
    main()
