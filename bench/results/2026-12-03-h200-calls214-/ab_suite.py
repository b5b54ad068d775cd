#!/usr/bin/env python3
"""One kernel of two builds against the best cuSPARSE algorithm of each build's own `spmv suite` run (call 216):
per unit (matrix, precision) the kernel's speed over the best cuSPARSE in the old and the new run, their ratio, and
the geomeans over the units both runs timed and verified; a unit only one of them has is listed apart.
    ab_suite.py KERNEL OLD-results.jsonl[.gz] NEW-results.jsonl[.gz]"""
import gzip, json, math, sys


def speeds(path, kernel):
    """(matrix, precision) -> kernel's speed over the best cuSPARSE of the same run."""
    times = {}
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        for line in f:
            r = json.loads(line)
            if r["status"] != "ok" or not r.get("verified"):
                continue
            times.setdefault((r["matrix"]["name"], r["precision"]), {})[r["kernel"]] = r["median_ms"]
    out = {}
    for unit, by_kernel in times.items():
        vendor = [t for k, t in by_kernel.items() if k.startswith("cusparse")]
        if kernel in by_kernel and vendor:
            out[unit] = min(vendor) / by_kernel[kernel]
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


kernel, old_path, new_path = sys.argv[1:4]
old, new = speeds(old_path, kernel), speeds(new_path, kernel)
both = sorted(set(old) & set(new))
print(f"| matrix | prec | old: {kernel} vs best cuSPARSE | new | new / old |")
print("|---|---|---:|---:|---:|")
for unit in both:
    print(f"| {unit[0]} | {unit[1]} | {old[unit]:.3f}x | {new[unit]:.3f}x | {new[unit] / old[unit]:.3f} |")
for precision in ("f64", "f32"):
    units = [u for u in both if u[1] == precision]
    print(f"| geomean | {precision} | {geomean([old[u] for u in units]):.3f}x | {geomean([new[u] for u in units]):.3f}x"
          f" | {geomean([new[u] / old[u] for u in units]):.3f} |")
missing = sorted(set(old) ^ set(new))
if missing:
    print("\n- in one run only: " + ", ".join(f"{m} {p}" for m, p in missing))
