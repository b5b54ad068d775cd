#!/usr/bin/env python3
"""Per unit of a `spmv suite --kernels all` results file: auto's choice and its speed over the best cuSPARSE
algorithm of the same run, the ideal (fastest kernel) and its speed, and the four fastest kernels.
    choices.py RESULTS.jsonl.gz"""
import collections, gzip, json, sys

units = collections.defaultdict(dict)
for line in gzip.open(sys.argv[1], "rt"):
    r = json.loads(line)
    if r.get("operation") == "spmv" and r["status"] == "ok":
        units[(r["matrix"]["name"], r["precision"])][r["kernel"]] = (r["median_ms"], r.get("chosen_kernel"))
for (matrix, precision), times in sorted(units.items()):
    cusparse = min(t for k, (t, _) in times.items() if k.startswith("cusparse"))
    auto_ms, chosen = times["auto"]
    ideal = min((k for k in times if k != "auto"), key=lambda k: times[k][0])
    fastest = sorted((t, k) for k, (t, _) in times.items() if k != "auto")[:4]
    print(f"{matrix:12s} {precision} auto {chosen} {cusparse / auto_ms:.2f}x, ideal {ideal} "
          f"{cusparse / times[ideal][0]:.2f}x | " + " ".join(f"{k} {cusparse / t:.2f}" for t, k in fastest))
