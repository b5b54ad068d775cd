#!/usr/bin/env python3
"""Best of our kernels (and auto) against the best cuSPARSE algorithm per unit of `spmv suite` results (product
time, same run): per set and precision the geometric mean, the worst, how many units are below 1.0 and which of
our kernels won.    best_vs_cusparse.py RESULTS.jsonl"""
import collections, json, math, sys

units = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["status"] != "ok" or not r["verified"] or r["k"] != 1:
        continue
    key = (r["set"], r["precision"], r["matrix"]["name"])
    name = r["kernel"] if r["backend"] != "cusparse" else "cusparse:" + r["kernel"]
    units[key][name] = r["median_ms"]

by_set = collections.defaultdict(list)
for (s, p, m), times in sorted(units.items()):
    vendor = [t for k, t in times.items() if k.startswith("cusparse:")]
    ours = {k: t for k, t in times.items() if not k.startswith("cusparse:") and k != "auto"}
    if not vendor or not ours:
        continue
    best = min(ours, key=ours.get)
    by_set[(s, p)].append((m, min(vendor) / ours[best], best, min(vendor) / times["auto"] if "auto" in times else None))
for (s, p), rows in sorted(by_set.items()):
    g = math.exp(sum(math.log(r[1]) for r in rows) / len(rows))
    autos = [r[3] for r in rows if r[3]]
    ga = math.exp(sum(math.log(a) for a in autos) / len(autos)) if autos else float("nan")
    worst = min(rows, key=lambda r: r[1])
    wins = collections.Counter(r[2] for r in rows)
    print(f"{s} {p}: {len(rows)} matrices, best of ours {g:.3f}x (worst {worst[1]:.2f}x {worst[0]}, "
          f"{sum(r[1] < 1 for r in rows)} below 1.0), auto {ga:.3f}x; won by " +
          ", ".join(f"{k} {n}" for k, n in wins.most_common()))
    for m, ratio, best, auto in sorted(rows, key=lambda r: r[1])[:8]:
        print(f"  {m:<32} {ratio:.2f}x {best}" + (f"  auto {auto:.2f}x" if auto else ""))
