#!/usr/bin/env python3
"""csr-adaptive against the best cuSPARSE algorithm of the same `spmv bench` run, per build or row_blocks_in_turn
tag, from call 179's or 180's results archive (r/ab-MATRIX-PRECISION-TAG.json): the geomean per precision for the
R-MATs and for the real matrices replicated (units with every tag measured), with -v each matrix.
    turns.py CALL-RESULTS.tgz TAG,TAG,... [-v]      (call 179: t1,t2,t4; call 180: old,t1,t2,t3)"""
import collections, json, math, sys, tarfile

tags = sys.argv[2].split(",")
ratios = collections.defaultdict(dict)
with tarfile.open(sys.argv[1]) as archive:
    for member in archive.getmembers():
        name = member.name.rsplit("/", 1)[-1]
        if not (name.startswith("ab-") and name.endswith(".json")):
            continue
        matrix, precision, tag = name[3:-5].rsplit("-", 2)
        run = json.load(archive.extractfile(member))
        times = {r["kernel"]: r["median_ms"] for r in run["results"] if r["status"] == "ok"}
        cusparse = min(t for k, t in times.items() if k.startswith("cusparse"))
        if "csr-adaptive" in times:
            ratios[(matrix, precision)][tag] = cusparse / times["csr-adaptive"]
for precision in ("f32", "f64"):
    for group in ("rmat", "real"):
        keys = sorted(k for k in ratios if k[1] == precision and k[0].startswith("rmat") == (group == "rmat")
                      and len(ratios[k]) == len(tags))
        if not keys:
            continue
        print(precision, group, len(keys), " ".join(
            f"{t}: {math.exp(sum(math.log(ratios[k][t]) for k in keys) / len(keys)):.3f} "
            f"({sum(ratios[k][t] < 1 for k in keys)} < 1)" for t in tags))
        if "-v" in sys.argv:
            for k in keys:
                print("   ", k[0], " ".join(f"{ratios[k][t]:.3f}" for t in tags))
