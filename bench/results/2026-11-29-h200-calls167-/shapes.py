#!/usr/bin/env python3
"""csr-adaptive at several shapes against the best cuSPARSE algorithm of the same `spmv bench` run, from a call's
results archive (calls 168, 169: r/ab-MATRIX-SHAPE.json): per matrix, and the geomean per shape.
    shapes.py CALL-RESULTS.tgz"""
import collections, json, math, sys, tarfile

ratios = collections.defaultdict(dict)
with tarfile.open(sys.argv[1]) as archive:
    for member in archive.getmembers():
        name = member.name.rsplit("/", 1)[-1]
        if not (name.startswith("ab-") and name.endswith(".json")):
            continue
        matrix, shape = name[3:-5].rsplit("-", 1)
        run = json.load(archive.extractfile(member))
        times = {r["kernel"]: r["median_ms"] for r in run["results"] if r["status"] == "ok"}
        cusparse = min(t for k, t in times.items() if k.startswith("cusparse"))
        ratios[matrix][shape] = cusparse / times["csr-adaptive"]
shapes = sorted({s for r in ratios.values() for s in r})
print("| matrix | " + " | ".join(shapes) + " |")
print("|---|" + "---:|" * len(shapes))
for matrix in sorted(ratios):
    print(f"| {matrix} | " + " | ".join(f"{ratios[matrix][s]:.3f}" if s in ratios[matrix] else "" for s in shapes)
          + " |")
geomeans = []
for s in shapes:
    values = [r[s] for r in ratios.values() if s in r]
    geomeans.append(f"{math.exp(sum(map(math.log, values)) / len(values)):.3f} ({sum(v < 1 for v in values)} < 1)")
print("| geomean (below 1.0x) | " + " | ".join(geomeans) + " |")
